//! Level files: one per level, a 64-byte header then the planes.
//!
//! ```text
//! 0   8  magic "AWALEDB\x1a"
//! 8   4  format version (u32 LE)
//! 12  1  seeds on the board (the level)
//! 13  1  grand_slam: 0 forbidden, 1 no_capture
//! 14  1  repetition: 0 nobody, 1 own_row
//! 15  1  planes: 2 = value, distance (exact); 2 = lower, upper (bounds)
//! 16  8  positions per plane (u64 LE) = C(seeds + 11, 11)
//! 24  8  checksum of the planes (u64 LE)
//! 32 24  zero
//! 56  8  checksum of bytes 0..56 (u64 LE)
//! 64     the planes, one byte per position each, in rank order
//! ```
//!
//! A file is written to `level-NN.tmp`, synced, then renamed: a level file
//! that exists is complete. Opening checks everything above, the size and
//! the checksum before any value is read.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

pub use awale_core::Variant;
use awale_core::{GrandSlam, Repetition};
use memmap2::Mmap;

use crate::index::level_size;
use crate::DbError;

const MAGIC: &[u8; 8] = b"AWALEDB\x1a";
/// The version of the file format this code reads and writes.
pub const FORMAT_VERSION: u32 = 1;
/// Bytes before the planes.
pub const HEADER_LEN: usize = 64;

/// The header's codes of a variant's options.
fn variant_codes(variant: Variant) -> [u8; 2] {
    [
        u8::from(variant.grand_slam == GrandSlam::NoCapture),
        u8::from(variant.repetition == Repetition::OwnRow),
    ]
}

/// The file of level `seeds` in the variant folder `dir`.
pub fn level_path(dir: &Path, seeds: u8) -> PathBuf {
    dir.join(format!("level-{seeds:02}.awdb"))
}

/// A 64-bit checksum (four interleaved multiply-rotate lanes, then mixed):
/// catches damaged and truncated data, fast enough to check gigabytes.
pub fn checksum(bytes: &[u8]) -> u64 {
    const K: [u64; 4] = [
        0x9E37_79B9_7F4A_7C15,
        0xC2B2_AE3D_27D4_EB4F,
        0x1656_67B1_9E37_79F9,
        0x85EB_CA77_C2B2_AE63,
    ];
    let mut lanes = K;
    let mut blocks = bytes.chunks_exact(32);
    for block in &mut blocks {
        for (i, lane) in lanes.iter_mut().enumerate() {
            let mut w = [0u8; 8];
            w.copy_from_slice(&block[8 * i..8 * i + 8]);
            *lane = (*lane ^ u64::from_le_bytes(w))
                .wrapping_mul(K[(i + 1) % 4])
                .rotate_left(31);
        }
    }
    let mut h = bytes.len() as u64;
    for (i, lane) in lanes.iter().enumerate() {
        h = (h ^ lane.rotate_left(7 * i as u32)).wrapping_mul(K[i]);
    }
    for &b in blocks.remainder() {
        h = (h ^ u64::from(b)).wrapping_mul(K[0]).rotate_left(23);
    }
    h ^= h >> 33;
    h = h.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    h ^ (h >> 33)
}

fn header(variant: Variant, seeds: u8, planes: &[&[u8]]) -> [u8; HEADER_LEN] {
    let mut h = [0u8; HEADER_LEN];
    h[0..8].copy_from_slice(MAGIC);
    h[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
    h[12] = seeds;
    h[13..15].copy_from_slice(&variant_codes(variant));
    h[15] = planes.len() as u8;
    h[16..24].copy_from_slice(&level_size(seeds).to_le_bytes());
    let mut sum = 0u64;
    for plane in planes {
        sum = sum.rotate_left(17) ^ checksum(plane);
    }
    h[24..32].copy_from_slice(&sum.to_le_bytes());
    let head = checksum(&h[..56]);
    h[56..64].copy_from_slice(&head.to_le_bytes());
    h
}

/// Writes the level file of `seeds` in `dir` from its planes: to a
/// temporary file, synced, then renamed into place.
///
/// # Errors
///
/// Any I/O error, with the path.
pub fn write_level(
    dir: &Path,
    variant: Variant,
    seeds: u8,
    planes: &[&[u8]],
) -> Result<(), DbError> {
    let path = level_path(dir, seeds);
    let tmp = path.with_extension("tmp");
    let io = |e: io::Error, p: &Path| DbError::Io(p.to_path_buf(), e);
    let file = File::create(&tmp).map_err(|e| io(e, &tmp))?;
    let mut out = BufWriter::with_capacity(1 << 20, file);
    out.write_all(&header(variant, seeds, planes))
        .map_err(|e| io(e, &tmp))?;
    for plane in planes {
        out.write_all(plane).map_err(|e| io(e, &tmp))?;
    }
    let file = out.into_inner().map_err(|e| io(e.into_error(), &tmp))?;
    file.sync_all().map_err(|e| io(e, &tmp))?;
    std::fs::rename(&tmp, &path).map_err(|e| io(e, &path))?;
    Ok(())
}

/// One plane of the level being built, written to a file without a name
/// in the database folder and mapped: the system can drop its pages and
/// read them again, as it does for the lower levels. Nothing is left on
/// disk when it is dropped or the build is killed, and no other process can
/// open the file.
pub struct Spill {
    map: Mmap,
}

impl Spill {
    /// Writes `bytes` in a file without a name in `dir` and maps them.
    ///
    /// # Errors
    ///
    /// Any I/O error, with the folder.
    pub fn write(dir: &Path, bytes: &[u8]) -> Result<Spill, DbError> {
        let io = |e: io::Error| DbError::Io(dir.to_path_buf(), e);
        let mut file = tempfile::tempfile_in(dir).map_err(io)?;
        file.write_all(bytes).map_err(io)?;
        let map = map_file(&file).map_err(io)?;
        Ok(Spill { map })
    }

    /// The bytes written.
    pub fn bytes(&self) -> &[u8] {
        &self.map
    }
}

/// A level file, mapped and checked.
pub struct LevelFile {
    map: Mmap,
    seeds: u8,
    size: usize,
}

impl LevelFile {
    /// The level: seeds on the board.
    pub fn seeds(&self) -> u8 {
        self.seeds
    }

    /// Plane `i` (0 or 1), one byte per position.
    pub fn plane(&self, i: usize) -> &[u8] {
        &self.map[HEADER_LEN + i * self.size..HEADER_LEN + (i + 1) * self.size]
    }

    /// The file's size in bytes.
    pub fn bytes(&self) -> u64 {
        self.map.len() as u64
    }
}

/// Maps `file` into memory.
///
/// `unsafe` because another process could change the file under the map.
/// Level files are written once, under another name, then renamed: no one
/// writes to a level file in place, and the checksum is checked after
/// mapping, before any value is used. A [`Spill`] has no name: only the
/// build that wrote it can reach it, and it maps it once written.
#[allow(unsafe_code)]
fn map_file(file: &File) -> io::Result<Mmap> {
    // SAFETY: see above; the map is only ever read.
    unsafe { Mmap::map(file) }
}

/// Opens and checks the level file of `seeds` for `variant` in `dir`.
///
/// # Errors
///
/// [`DbError::Missing`] when there is no file, [`DbError::Io`] when it
/// cannot be read, [`DbError::Damaged`] when it is not a level file of this
/// variant and level, or its size or checksum is wrong.
pub fn open_level(dir: &Path, variant: Variant, seeds: u8) -> Result<LevelFile, DbError> {
    let path = level_path(dir, seeds);
    let file = match File::open(&path) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Err(DbError::Missing(path)),
        Err(e) => return Err(DbError::Io(path, e)),
    };
    // A folder opens like a file, but cannot be mapped ("No such device").
    if file.metadata().is_ok_and(|m| m.is_dir()) {
        return Err(DbError::Damaged(
            path,
            "a folder stands where the level file should be".into(),
        ));
    }
    let map = map_file(&file).map_err(|e| DbError::Io(path.clone(), e))?;
    let damaged = |why: String| DbError::Damaged(path.clone(), why);
    if map.len() < HEADER_LEN {
        return Err(damaged(format!(
            "only {} bytes, shorter than a header",
            map.len()
        )));
    }
    let h = &map[..HEADER_LEN];
    if &h[0..8] != MAGIC {
        return Err(damaged(
            "not an Awalé database file (wrong magic bytes)".into(),
        ));
    }
    let stored_head = u64::from_le_bytes(h[56..64].try_into().unwrap_or_default());
    if checksum(&h[..56]) != stored_head {
        return Err(damaged("the header's checksum is wrong".into()));
    }
    let version = u32::from_le_bytes(h[8..12].try_into().unwrap_or_default());
    if version != FORMAT_VERSION {
        return Err(damaged(format!(
            "format version {version}, this program reads version {FORMAT_VERSION}: rebuild it"
        )));
    }
    if h[12] != seeds {
        return Err(damaged(format!("holds level {} instead of {seeds}", h[12])));
    }
    if h[13..15] != variant_codes(variant) {
        return Err(damaged(format!(
            "built for other rules (codes {:?}, expected {:?} for {})",
            &h[13..15],
            variant_codes(variant),
            variant.name()
        )));
    }
    let size = level_size(seeds);
    let planes = usize::from(h[15]);
    let count = u64::from_le_bytes(h[16..24].try_into().unwrap_or_default());
    if planes != 2 || count != size {
        return Err(damaged(format!(
            "{planes} planes of {count} positions, expected 2 of {size}"
        )));
    }
    let expected_len = HEADER_LEN as u64 + 2 * size;
    if map.len() as u64 != expected_len {
        return Err(damaged(format!(
            "{} bytes, expected {expected_len} (truncated or padded)",
            map.len()
        )));
    }
    let stored = u64::from_le_bytes(h[24..32].try_into().unwrap_or_default());
    let level = LevelFile {
        map,
        seeds,
        size: size as usize,
    };
    let mut sum = 0u64;
    for i in 0..2 {
        sum = sum.rotate_left(17) ^ checksum(level.plane(i));
    }
    if sum != stored {
        return Err(damaged(
            "the values' checksum is wrong: the file is damaged".into(),
        ));
    }
    Ok(level)
}
