//! Which WAP32 game a level is for, told from the header's image-set names and image directory:
//! `LEVEL<n>` is Captain Claw, `AREA<n>` Gruntz, `DUNGEON<n>` Get Medieval (tile sizes, 64 vs 32,
//! and `TILES` vs `TILEZ` agree in real files).

use super::raw::Header;
use super::text;

/// The game a level belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Game {
    /// Captain Claw: image sets `LEVEL<n>`, 64×64 tiles, `TILES`.
    Claw,
    /// Gruntz: image sets `AREA<n>`, 32×32 tiles, `TILEZ`.
    Gruntz,
    /// Get Medieval: image sets `DUNGEON<n>`.
    GetMedieval,
    /// None of the signs above.
    Unknown,
}

impl Game {
    /// `"Claw"`, `"Gruntz"`, `"Get Medieval"`, `"unknown"`.
    pub const fn name(self) -> &'static str {
        match self {
            Game::Claw => "Claw",
            Game::Gruntz => "Gruntz",
            Game::GetMedieval => "Get Medieval",
            Game::Unknown => "unknown",
        }
    }
}

/// The game a path like `LEVEL9_IMAGES`, `\AREA1\TILEZ` or `DUNGEON3\IMAGES` names.
fn from_path(path: &[u8]) -> Option<Game> {
    let start = path.iter().position(|&b| b != b'\\' && b != b'/')?;
    let path = path.get(start..)?;
    let numbered = |prefix: &[u8]| {
        path.len() > prefix.len()
            && path
                .get(..prefix.len())
                .is_some_and(|p| p.eq_ignore_ascii_case(prefix))
            && path.get(prefix.len()).is_some_and(u8::is_ascii_digit)
    };
    if numbered(b"LEVEL") {
        Some(Game::Claw)
    } else if numbered(b"AREA") {
        Some(Game::Gruntz)
    } else if numbered(b"DUNGEON") {
        Some(Game::GetMedieval)
    } else {
        None
    }
}

/// Detects the game from the header's image sets, then its image directory.
pub(crate) fn detect(header: &Header) -> Game {
    header
        .image_sets
        .iter()
        .map(|slot| text::fixed(slot))
        .chain(core::iter::once(text::fixed(&header.image_dir)))
        .find_map(from_path)
        .unwrap_or(Game::Unknown)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_name_games() {
        assert_eq!(from_path(b"LEVEL1\\IMAGES"), Some(Game::Claw));
        assert_eq!(from_path(b"LEVEL9_IMAGES"), Some(Game::Claw));
        assert_eq!(from_path(b"\\AREA1\\TILEZ"), Some(Game::Gruntz));
        assert_eq!(from_path(b"dungeon2\\IMAGES"), Some(Game::GetMedieval));
        assert_eq!(from_path(b"GAME_IMAGES"), None);
        assert_eq!(from_path(b"LEVEL"), None);
        assert_eq!(from_path(b""), None);
    }
}
