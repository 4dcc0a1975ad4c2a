//! A message instead of a bare "Bus error" when a mapped file changes under gamebin.
//!
//! gamebin maps the files it reads (see `files::map`). If another process truncates a file while
//! it is mapped, reading the part that is gone raises SIGBUS, which kills the process with no word
//! but the shell's "Bus error" (exit status 135). [`install`] sets a SIGBUS handler that finds
//! which file the faulting address belongs to, says so with a pointer to `--no-mmap`, and exits
//! with status 1, as for any file that fails.
//!
//! The handler finds the file in `/proc/self/maps` (the kernel's list of this process's mappings,
//! each with the path of the file behind it) rather than in a list gamebin keeps: nothing has to be
//! recorded before each mapping, and the path is the file actually mapped. It does only what a
//! signal handler may: `open`, `read`, `write`, `close`, `sigaction` and `_exit` (all
//! async-signal-safe in POSIX), with fixed buffers on the stack; no allocation, lock or
//! formatting. A SIGBUS whose address lies in no file mapping (not a file that changed) goes to
//! the handler that was there before, as if this one had never been installed.
//!
//! Linux (and Android) only, where `/proc/self/maps` and `siginfo_t::si_addr` are; elsewhere
//! [`install`] does nothing and a truncated file still ends in SIGBUS.
#![allow(unsafe_code)]

/// The message after the file's path (or after `gamebin: ` when the mapping has no path).
const MESSAGE: &[u8] = b"the file changed while gamebin read it through a memory mapping (it \
    was truncated or replaced by another process?), and reading the part that is gone failed \
    (SIGBUS, \"Bus error\"); nothing more was read. Use --no-mmap for files that may change while \
    they are read: gamebin then reads them into memory, as they were when it opened them.\n";

#[cfg(any(target_os = "linux", target_os = "android"))]
mod imp {
    use std::sync::OnceLock;

    /// The SIGBUS action before [`install`]'s, restored for a fault that is not a mapped file's.
    static PREVIOUS: OnceLock<libc::sigaction> = OnceLock::new();

    /// Longest path (and `/proc/self/maps` line) the handler keeps; longer ones are cut.
    const LINE: usize = 4096;

    pub fn install() {
        // SAFETY: a zeroed `sigaction` is a valid value (no handler, empty mask, no flags), and
        // `sigemptyset` gets a pointer to the mask inside it.
        let mut action: libc::sigaction = unsafe { std::mem::zeroed() };
        action.sa_sigaction = on_sigbus as *const () as libc::sighandler_t;
        action.sa_flags = libc::SA_SIGINFO;
        // SAFETY: `action.sa_mask` is a valid, writable sigset_t.
        unsafe { libc::sigemptyset(&mut action.sa_mask) };
        // SAFETY: as above, a zeroed `sigaction` is valid; sigaction() fills it.
        let mut previous: libc::sigaction = unsafe { std::mem::zeroed() };
        // SAFETY: both pointers are to valid `sigaction` values that live across the call, and
        // `on_sigbus` has the signature SA_SIGINFO asks for and is async-signal-safe (see the
        // module's documentation).
        if unsafe { libc::sigaction(libc::SIGBUS, &action, &mut previous) } == 0 {
            let _ = PREVIOUS.set(previous);
        }
    }

    extern "C" fn on_sigbus(
        signal: libc::c_int,
        info: *mut libc::siginfo_t,
        _context: *mut libc::c_void,
    ) {
        // SAFETY: the kernel passes a valid siginfo_t for a handler installed with SA_SIGINFO;
        // si_addr is the faulting address for SIGBUS.
        let address = unsafe { (*info).si_addr() } as usize;
        let mut path = [0u8; LINE];
        let Some(found) = file_mapped_at(address, &mut path) else {
            // Not a file that changed: the fault goes to the previous action (the default ends
            // the process with SIGBUS, as before this handler existed). Returning re-runs the
            // faulting instruction under it.
            // SAFETY: a zeroed sigaction is the default action (SIG_DFL, for a fault before
            // `PREVIOUS` is set); sigaction() is async-signal-safe, and reads a valid value.
            let default: libc::sigaction = unsafe { std::mem::zeroed() };
            let previous = PREVIOUS.get().unwrap_or(&default);
            // SAFETY: as above.
            unsafe { libc::sigaction(signal, previous, std::ptr::null_mut()) };
            return;
        };
        write_all(b"gamebin: ");
        if let Some(path) = path.get(..found).filter(|p| !p.is_empty()) {
            write_all(path);
            write_all(b": ");
        }
        write_all(super::MESSAGE);
        // SAFETY: _exit is async-signal-safe; it ends the process at once without running
        // anything else of Rust's (no destructors, no buffered output flushed).
        unsafe { libc::_exit(1) }
    }

    /// Writes `bytes` to standard error, as far as it goes.
    fn write_all(mut bytes: &[u8]) {
        while !bytes.is_empty() {
            // SAFETY: a valid pointer and length into `bytes`; write() is async-signal-safe.
            let n = unsafe { libc::write(libc::STDERR_FILENO, bytes.as_ptr().cast(), bytes.len()) };
            let Ok(n) = usize::try_from(n) else {
                return;
            };
            if n == 0 {
                return;
            }
            bytes = bytes.get(n..).unwrap_or(&[]);
        }
    }

    /// Finds the file mapping holding `address` in `/proc/self/maps` and copies its path into
    /// `path`: the path's length, `Some(0)` for a file mapping without a path, `None` when no
    /// file mapping holds the address (or the list cannot be read).
    fn file_mapped_at(address: usize, path: &mut [u8; LINE]) -> Option<usize> {
        // SAFETY: a NUL-terminated path; open() is async-signal-safe.
        let fd = unsafe { libc::open(c"/proc/self/maps".as_ptr(), libc::O_RDONLY) };
        if fd < 0 {
            return None;
        }
        let mut chunk = [0u8; 1024];
        let mut line = [0u8; LINE];
        let mut len = 0;
        let mut found = None;
        'read: loop {
            // SAFETY: a valid, writable buffer of chunk.len() bytes; read() is
            // async-signal-safe.
            let n = unsafe { libc::read(fd, chunk.as_mut_ptr().cast(), chunk.len()) };
            let Ok(n) = usize::try_from(n) else {
                break;
            };
            if n == 0 {
                break;
            }
            for &byte in chunk.get(..n).unwrap_or(&[]) {
                if byte == b'\n' {
                    if let Some(size) =
                        path_if_holding(line.get(..len).unwrap_or(&[]), address, path)
                    {
                        found = Some(size);
                        break 'read;
                    }
                    len = 0;
                } else if let Some(slot) = line.get_mut(len) {
                    // A line longer than the buffer is cut (its path with it).
                    *slot = byte;
                    len += 1;
                }
            }
        }
        // SAFETY: fd was opened above; close() is async-signal-safe.
        unsafe { libc::close(fd) };
        found
    }

    /// For one line of `/proc/self/maps` (`start-end perms offset dev inode  path`): when the
    /// range holds `address` and the mapping is a file's (inode not 0), its path copied into
    /// `path` and its length.
    fn path_if_holding(line: &[u8], address: usize, path: &mut [u8; LINE]) -> Option<usize> {
        let mut fields = line.splitn(6, |&b| b == b' ');
        let range = fields.next()?;
        let mut ends = range.splitn(2, |&b| b == b'-');
        let start = hex(ends.next()?)?;
        let end = hex(ends.next()?)?;
        if !(start <= address && address < end) {
            return None;
        }
        let (_perms, _offset, _device) = (fields.next()?, fields.next()?, fields.next()?);
        let inode = fields.next()?;
        if inode.iter().all(|&b| b == b'0') {
            return None; // anonymous memory, the stack, the heap: not a file
        }
        let name = fields.next().unwrap_or(&[]);
        let start = name.iter().position(|&b| b != b' ').unwrap_or(name.len());
        let name = name.get(start..).unwrap_or(&[]);
        let size = name.len().min(path.len());
        path.get_mut(..size)?.copy_from_slice(name.get(..size)?);
        Some(size)
    }

    /// A hexadecimal number without prefix, `None` if it is not one or does not fit.
    fn hex(digits: &[u8]) -> Option<usize> {
        if digits.is_empty() {
            return None;
        }
        digits.iter().try_fold(0usize, |value, &d| {
            let digit = (d as char).to_digit(16)?;
            value.checked_mul(16)?.checked_add(digit as usize)
        })
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn a_line_of_the_maps_gives_the_path_of_the_file_holding_the_address() {
            let mut path = [0u8; LINE];
            let line =
                b"7f12a000-7f12c000 r--s 00000000 08:01 1234567                    /tmp/x y.bin";
            let size = path_if_holding(line, 0x7f12_b000, &mut path).unwrap();
            assert_eq!(&path[..size], b"/tmp/x y.bin");
            assert_eq!(path_if_holding(line, 0x7f12_c000, &mut path), None);
            assert_eq!(path_if_holding(line, 0x7f12_9fff, &mut path), None);
            let anonymous = b"7f12a000-7f12c000 rw-p 00000000 00:00 0 ";
            assert_eq!(path_if_holding(anonymous, 0x7f12_b000, &mut path), None);
            assert_eq!(path_if_holding(b"", 0, &mut path), None);
            assert_eq!(path_if_holding(b"zz-1 r", 0, &mut path), None);
            assert_eq!(hex(b"ffffffffffffffffff"), None);
        }

        #[test]
        fn this_process_finds_its_own_mapping_of_a_file() {
            let dir = std::env::temp_dir().join(format!("gamebin-sigbus-{}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            let file = dir.join("mapped.bin");
            std::fs::write(&file, vec![7u8; 8192]).unwrap();
            let mapped = gamebin::MappedFile::open(&file).unwrap();
            let address = mapped.bytes().as_ptr() as usize + 100;
            let mut path = [0u8; LINE];
            let size = file_mapped_at(address, &mut path).unwrap();
            let want = std::fs::canonicalize(&file).unwrap();
            assert_eq!(&path[..size], want.as_os_str().as_encoded_bytes());
            // A stack address is in no file mapping.
            let local = 0u8;
            assert_eq!(
                file_mapped_at(&local as *const u8 as usize, &mut path),
                None
            );
            drop(mapped);
            std::fs::remove_dir_all(&dir).unwrap();
        }
    }
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
mod imp {
    pub fn install() {
        let _ = super::MESSAGE;
    }
}

/// Installs the SIGBUS handler (once, before any file is mapped).
pub fn install() {
    imp::install();
}
