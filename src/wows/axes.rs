//! The one coordinate conversion of every exporter: from the game's left-handed, Y-up space to the
//! right-handed, Y-up space of OBJ and glTF.

/// A position or direction: X mirrored.
pub const fn right_handed(p: [f32; 3]) -> [f32; 3] {
    [-p[0], p[1], p[2]]
}

/// A column-major 4×4 transform (a node's matrix) as the same transform in the right-handed space:
/// S·M·S with S = diag(−1, 1, 1, 1), so that it maps [`right_handed`] points to [`right_handed`]
/// points. The entries of the X row and the X column change sign, except their shared corner.
pub const fn right_handed_matrix(m: [f32; 16]) -> [f32; 16] {
    let mut out = m;
    let mut i = 0;
    while i < 16 {
        let (column, row) = (i / 4, i % 4);
        if (row == 0) != (column == 0) {
            out[i] = -m[i];
        }
        i += 1;
    }
    out
}

/// A triangle's corners in the order that keeps it facing the same way after
/// [`right_handed`] (mirroring reverses the winding).
pub const fn rewound<T: Copy>(t: [T; 3]) -> [T; 3] {
    [t[0], t[2], t[1]]
}

/// A stored UV (the game stores `uv − 0.5`) as a texture coordinate with glTF's (and Direct3D's)
/// origin at the top left.
pub fn texcoord_top_left(uv: [f32; 2]) -> [f32; 2] {
    [uv[0] + 0.5, uv[1] + 0.5]
}

/// A stored UV as a texture coordinate with OBJ's (and OpenGL's) origin at the bottom left.
pub fn texcoord_bottom_left(uv: [f32; 2]) -> [f32; 2] {
    [uv[0] + 0.5, 0.5 - uv[1]]
}

/// `v` with every component that is not finite (NaN, infinite) as 0: what the exporters write for
/// such a stored value, since neither glTF nor OBJ gives it a meaning (a validator refuses it);
/// [`Vertices::non_finite`](crate::wows::geometry::Vertices::non_finite) reports where.
pub fn finite<const N: usize>(v: [f32; N]) -> [f32; N] {
    v.map(|c| if c.is_finite() { c } else { 0.0 })
}

/// `v` scaled to unit length, or `fallback` when it has none (a zero vector, NaN).
pub fn unit_or(v: [f32; 3], fallback: [f32; 3]) -> [f32; 3] {
    let len = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    if len.is_finite() && len > 1e-6 {
        v.map(|c| c / len)
    } else {
        fallback
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mirroring_twice_is_the_identity_and_rewinding_keeps_the_first_corner() {
        let p = [1.5, -2.0, 3.25];
        assert_eq!(right_handed(right_handed(p)), p);
        assert_eq!(rewound([7, 8, 9]), [7, 9, 8]);
        assert_eq!(texcoord_top_left([-0.5, 0.25]), [0.0, 0.75]);
        assert_eq!(texcoord_bottom_left([-0.5, 0.25]), [0.0, 0.25]);
        assert_eq!(unit_or([0.0, 3.0, 4.0], [1.0; 3]), [0.0, 0.6, 0.8]);
        assert_eq!(unit_or([0.0; 3], [0.0, 1.0, 0.0]), [0.0, 1.0, 0.0]);
    }

    #[test]
    fn the_converted_matrix_moves_converted_points_where_the_matrix_moved_them() {
        // Column-major: a rotation about Y by 90 degrees, then a translation.
        let m = [
            0.0, 0.0, -1.0, 0.0, //
            0.0, 1.0, 0.0, 0.0, //
            1.0, 0.0, 0.0, 0.0, //
            2.0, 3.0, 4.0, 1.0,
        ];
        let apply = |m: &[f32; 16], p: [f32; 3]| {
            [0, 1, 2].map(|r| m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r])
        };
        let p = [1.0, -2.0, 0.5];
        let converted = right_handed_matrix(m);
        assert_eq!(
            apply(&converted, right_handed(p)),
            right_handed(apply(&m, p))
        );
        assert_eq!(right_handed_matrix(converted), m);
        assert_eq!(converted[12], -2.0, "the translation's X is mirrored");
    }

    #[test]
    fn the_mirrored_face_normal_matches_the_mirrored_vertex_normal() {
        // A triangle in the game's space whose corners wind so that its face normal is +Y.
        let t = [[0.0f32, 0.0, 0.0], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]];
        let face = |t: [[f32; 3]; 3]| {
            let u = [0, 1, 2].map(|k| t[1][k] - t[0][k]);
            let v = [0, 1, 2].map(|k| t[2][k] - t[0][k]);
            [
                u[1] * v[2] - u[2] * v[1],
                u[2] * v[0] - u[0] * v[2],
                u[0] * v[1] - u[1] * v[0],
            ]
        };
        assert_eq!(face(t), [0.0, 1.0, 0.0]);
        // Mirrored and rewound, the face normal is the mirrored normal (+Y stays +Y).
        let converted = rewound(t.map(right_handed));
        assert_eq!(face(converted), right_handed([0.0, 1.0, 0.0]));
    }
}
