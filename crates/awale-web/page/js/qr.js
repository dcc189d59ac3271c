// QR codes (ISO/IEC 18004), made here for the invite and "continue on
// another device" links: byte mode (UTF-8), versions 1 to 40, error
// correction L, M, Q or H, the mask of least penalty; drawn as SVG.

// Error correction codewords per block, for versions 1..40, by level.
const EC_PER_BLOCK = {
  L: [7, 10, 15, 20, 26, 18, 20, 24, 30, 18, 20, 24, 26, 30, 22, 24, 28, 30, 28, 28, 28, 28, 30, 30, 26, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30],
  M: [10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26, 26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28],
  Q: [13, 22, 18, 26, 18, 24, 18, 22, 20, 24, 28, 26, 24, 20, 30, 24, 28, 28, 26, 30, 28, 30, 30, 30, 30, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30],
  H: [17, 28, 22, 16, 22, 28, 26, 26, 24, 28, 24, 28, 22, 24, 24, 30, 28, 28, 26, 28, 30, 24, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30],
};

// Error correction blocks, for versions 1..40, by level.
const BLOCKS = {
  L: [1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 7, 8, 8, 9, 9, 10, 12, 12, 12, 13, 14, 15, 16, 17, 18, 19, 19, 20, 21, 22, 24, 25],
  M: [1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16, 17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49],
  Q: [1, 1, 2, 2, 4, 4, 6, 6, 8, 8, 8, 10, 12, 16, 12, 17, 16, 18, 21, 20, 23, 23, 25, 27, 29, 34, 34, 35, 38, 40, 43, 45, 48, 51, 53, 56, 59, 62, 65, 68],
  H: [1, 1, 2, 4, 4, 4, 5, 6, 8, 8, 11, 11, 16, 16, 18, 16, 19, 21, 25, 25, 25, 34, 30, 32, 35, 37, 40, 42, 45, 48, 51, 54, 57, 60, 63, 66, 70, 74, 77, 81],
};

// The two bits of each level in the format information.
const LEVEL_BITS = { L: 1, M: 0, Q: 3, H: 2 };
const LEVELS = ["L", "M", "Q", "H"];

// ------------------------------------------------ GF(256), Reed-Solomon --

// Exponents and logarithms of the field built on x^8+x^4+x^3+x^2+1.
const EXP = new Uint8Array(512);
const LOG = new Uint8Array(256);
{
  let x = 1;
  for (let i = 0; i < 255; i++) {
    EXP[i] = x;
    LOG[x] = i;
    x <<= 1;
    if (x & 0x100) x ^= 0x11d;
  }
  for (let i = 255; i < 512; i++) EXP[i] = EXP[i - 255];
}

function mul(a, b) {
  return a && b ? EXP[LOG[a] + LOG[b]] : 0;
}

// The generator polynomial of degree n, (x - a^0)(x - a^1)...(x - a^(n-1)),
// highest coefficient first (which is 1, left out).
function generator(n) {
  let poly = [1];
  for (let i = 0; i < n; i++) {
    const next = new Array(poly.length + 1).fill(0);
    for (let j = 0; j < poly.length; j++) {
      next[j] ^= poly[j];
      next[j + 1] ^= mul(poly[j], EXP[i]);
    }
    poly = next;
  }
  return poly.slice(1);
}

// The n error correction codewords of `data`: the remainder of
// data(x)·x^n divided by the generator.
export function reedSolomon(data, n) {
  const gen = generator(n);
  const rem = new Array(n).fill(0);
  for (const byte of data) {
    const factor = byte ^ rem.shift();
    rem.push(0);
    for (let i = 0; i < n; i++) rem[i] ^= mul(gen[i], factor);
  }
  return rem;
}

// ------------------------------------------------------------ layout --

function sizeOf(version) {
  return 17 + 4 * version;
}

// The centres of the alignment patterns along one axis: from 6 to
// size - 7, evenly spaced by an even step (version 32 has its own).
export function alignmentPositions(version) {
  if (version === 1) return [];
  const size = sizeOf(version);
  const count = Math.floor(version / 7) + 2;
  const step = version === 32 ? 26 : Math.ceil((size - 13) / (count * 2 - 2)) * 2;
  const out = [6];
  for (let pos = size - 7; out.length < count; pos -= step) out.splice(1, 0, pos);
  return out;
}

// A symbol under construction: its modules (1 dark) and which of them
// are function patterns (not data).
class Grid {
  constructor(version) {
    this.version = version;
    this.size = sizeOf(version);
    this.dark = new Uint8Array(this.size * this.size);
    this.fixed = new Uint8Array(this.size * this.size);
    this.drawFunctionPatterns();
  }

  set(x, y, dark) {
    this.dark[y * this.size + x] = dark ? 1 : 0;
    this.fixed[y * this.size + x] = 1;
  }

  get(x, y) {
    return this.dark[y * this.size + x] === 1;
  }

  drawFunctionPatterns() {
    const n = this.size;
    // Timing patterns.
    for (let i = 0; i < n; i++) {
      this.set(6, i, i % 2 === 0);
      this.set(i, 6, i % 2 === 0);
    }
    // Finder patterns with their light separators.
    for (const [cx, cy] of [[3, 3], [n - 4, 3], [3, n - 4]]) {
      for (let dy = -4; dy <= 4; dy++) {
        for (let dx = -4; dx <= 4; dx++) {
          const x = cx + dx;
          const y = cy + dy;
          if (x < 0 || y < 0 || x >= n || y >= n) continue;
          const ring = Math.max(Math.abs(dx), Math.abs(dy));
          this.set(x, y, ring !== 2 && ring !== 4);
        }
      }
    }
    // Alignment patterns, except where a finder is.
    const pos = alignmentPositions(this.version);
    const last = pos.length - 1;
    for (let i = 0; i <= last; i++) {
      for (let j = 0; j <= last; j++) {
        if ((i === 0 && j === 0) || (i === 0 && j === last) || (i === last && j === 0)) continue;
        for (let dy = -2; dy <= 2; dy++) {
          for (let dx = -2; dx <= 2; dx++) {
            this.set(pos[i] + dx, pos[j] + dy, Math.max(Math.abs(dx), Math.abs(dy)) !== 1);
          }
        }
      }
    }
    // Format information (written once the mask is chosen) and the dark
    // module.
    this.drawFormat(0, 0);
    this.set(8, n - 8, true);
    this.drawVersion();
  }

  // The 15 bits of format information: the level and the mask, with
  // BCH(15,5) error correction, masked by 101010000010010.
  drawFormat(levelBits, mask) {
    const n = this.size;
    const data = (levelBits << 3) | mask;
    let rem = data;
    for (let i = 0; i < 10; i++) rem = (rem << 1) ^ ((rem >> 9) * 0x537);
    const bits = ((data << 10) | rem) ^ 0x5412;
    const bit = (i) => ((bits >> i) & 1) === 1;
    // Around the top left finder.
    for (let i = 0; i <= 5; i++) this.set(8, i, bit(i));
    this.set(8, 7, bit(6));
    this.set(8, 8, bit(7));
    this.set(7, 8, bit(8));
    for (let i = 9; i < 15; i++) this.set(14 - i, 8, bit(i));
    // Under the top right finder and beside the bottom left one.
    for (let i = 0; i < 8; i++) this.set(n - 1 - i, 8, bit(i));
    for (let i = 8; i < 15; i++) this.set(8, n - 15 + i, bit(i));
  }

  // From version 7: the version in 6 bits with BCH(18,6) error
  // correction, twice.
  drawVersion() {
    if (this.version < 7) return;
    let rem = this.version;
    for (let i = 0; i < 12; i++) rem = (rem << 1) ^ ((rem >> 11) * 0x1f25);
    const bits = (this.version << 12) | rem;
    for (let i = 0; i < 18; i++) {
      const dark = ((bits >> i) & 1) === 1;
      const a = this.size - 11 + (i % 3);
      const b = Math.floor(i / 3);
      this.set(a, b, dark);
      this.set(b, a, dark);
    }
  }

  // Data modules available, in bits.
  capacityBits() {
    return this.fixed.reduce((free, f) => free + (f ? 0 : 1), 0);
  }

  // Places the codewords' bits in the zigzag of two-module columns, from
  // the bottom right, up then down, skipping the vertical timing pattern.
  placeCodewords(codewords) {
    const n = this.size;
    let i = 0;
    const total = codewords.length * 8;
    for (let right = n - 1; right >= 1; right -= 2) {
      if (right === 6) right = 5;
      const upward = ((right + 1) & 2) === 0;
      for (let step = 0; step < n; step++) {
        const y = upward ? n - 1 - step : step;
        for (let dx = 0; dx < 2; dx++) {
          const x = right - dx;
          if (this.fixed[y * n + x]) continue;
          const dark = i < total && ((codewords[i >> 3] >> (7 - (i & 7))) & 1) === 1;
          this.dark[y * n + x] = dark ? 1 : 0;
          i++;
        }
      }
    }
  }

  // Flips the data modules where mask `m` says (applying it twice undoes
  // it).
  applyMask(m) {
    const n = this.size;
    for (let y = 0; y < n; y++) {
      for (let x = 0; x < n; x++) {
        if (this.fixed[y * n + x] || !MASKS[m](x, y)) continue;
        this.dark[y * n + x] ^= 1;
      }
    }
  }

  // The penalty of the symbol as it is: long runs, 2x2 blocks, finder-like
  // patterns and an uneven share of dark modules.
  penalty() {
    const n = this.size;
    let score = 0;
    const at = (x, y) => (x < 0 || y < 0 || x >= n || y >= n ? 0 : this.dark[y * n + x]);
    for (let horizontal = 0; horizontal < 2; horizontal++) {
      for (let a = 0; a < n; a++) {
        let run = 1;
        for (let b = 1; b <= n; b++) {
          const cur = b < n ? (horizontal ? at(b, a) : at(a, b)) : -1;
          const prev = horizontal ? at(b - 1, a) : at(a, b - 1);
          if (cur === prev) {
            run++;
          } else {
            if (run >= 5) score += 3 + (run - 5);
            run = 1;
          }
        }
        // 1:1:3:1:1 with four light modules on one side.
        for (let b = -4; b < n; b++) {
          const m = (k) => (horizontal ? at(b + k, a) : at(a, b + k));
          const core = m(0) && !m(1) && m(2) && m(3) && m(4) && !m(5) && m(6);
          if (!core) continue;
          const before = !m(-1) && !m(-2) && !m(-3) && !m(-4);
          const after = !m(7) && !m(8) && !m(9) && !m(10);
          if (before) score += 40;
          if (after) score += 40;
        }
      }
    }
    for (let y = 0; y + 1 < n; y++) {
      for (let x = 0; x + 1 < n; x++) {
        const c = at(x, y);
        if (c === at(x + 1, y) && c === at(x, y + 1) && c === at(x + 1, y + 1)) score += 3;
      }
    }
    const darkCount = this.dark.reduce((s, d) => s + d, 0);
    const percent = (darkCount * 100) / (n * n);
    score += 10 * Math.floor(Math.abs(percent - 50) / 5);
    return score;
  }
}

// The eight masks: whether the module at column x, row y is flipped.
const MASKS = [
  (x, y) => (x + y) % 2 === 0,
  (x, y) => y % 2 === 0,
  (x) => x % 3 === 0,
  (x, y) => (x + y) % 3 === 0,
  (x, y) => (Math.floor(y / 2) + Math.floor(x / 3)) % 2 === 0,
  (x, y) => ((x * y) % 2) + ((x * y) % 3) === 0,
  (x, y) => (((x * y) % 2) + ((x * y) % 3)) % 2 === 0,
  (x, y) => (((x + y) % 2) + ((x * y) % 3)) % 2 === 0,
];

// ------------------------------------------------------------ encode --

// Data codewords a version holds at a level, and its blocks.
function blocksOf(version, level) {
  const total = Math.floor(new Grid(version).capacityBits() / 8);
  const count = BLOCKS[level][version - 1];
  const ec = EC_PER_BLOCK[level][version - 1];
  return { total, count, ec, data: total - count * ec };
}

// The bits of `bytes` in byte mode, padded to `capacity` codewords.
function dataCodewords(bytes, version, capacity) {
  const bits = [];
  const push = (value, length) => {
    for (let i = length - 1; i >= 0; i--) bits.push((value >> i) & 1);
  };
  push(0b0100, 4);
  push(bytes.length, version < 10 ? 8 : 16);
  for (const b of bytes) push(b, 8);
  const room = capacity * 8;
  for (let i = 0; i < 4 && bits.length < room; i++) bits.push(0);
  while (bits.length % 8) bits.push(0);
  const out = [];
  for (let i = 0; i < bits.length; i += 8) out.push(bits.slice(i, i + 8).reduce((v, b) => (v << 1) | b, 0));
  for (let pad = 0xec; out.length < capacity; pad ^= 0xec ^ 0x11) out.push(pad);
  return out;
}

// Splits the data into blocks, adds each block's error correction, and
// interleaves them.
function interleave(data, { total, count, ec }) {
  const shortLength = Math.floor(total / count) - ec;
  const longBlocks = total % count;
  const blocks = [];
  let k = 0;
  for (let b = 0; b < count; b++) {
    const length = shortLength + (b >= count - longBlocks ? 1 : 0);
    const part = data.slice(k, k + length);
    k += length;
    blocks.push({ data: part, ec: reedSolomon(part, ec) });
  }
  const out = [];
  for (let i = 0; i <= shortLength; i++) for (const b of blocks) if (i < b.data.length) out.push(b.data[i]);
  for (let i = 0; i < ec; i++) for (const b of blocks) out.push(b.ec[i]);
  return out;
}

// The QR code of `text`: {version, level, mask, size, modules} where
// modules[y * size + x] is 1 for a dark module. The smallest version that
// holds the text at `level` (at least `minVersion`), then the strongest
// level that still fits it. `mask` forces a mask (0..7), for tests.
export function encode(text, { level = "M", minVersion = 1, mask = null } = {}) {
  const bytes = new TextEncoder().encode(String(text));
  let version = minVersion;
  const needed = (v) => 4 + (v < 10 ? 8 : 16) + bytes.length * 8;
  while (version <= 40 && blocksOf(version, level).data * 8 < needed(version)) version++;
  if (version > 40) throw new RangeError(`${bytes.length} bytes do not fit in a QR code`);
  for (const stronger of LEVELS.slice(LEVELS.indexOf(level) + 1)) {
    if (blocksOf(version, stronger).data * 8 >= needed(version)) level = stronger;
  }
  const layout = blocksOf(version, level);
  const codewords = interleave(dataCodewords(bytes, version, layout.data), layout);
  const symbol = new Grid(version);
  symbol.placeCodewords(codewords);
  let best = mask;
  if (best === null) {
    let lowest = Infinity;
    for (let m = 0; m < 8; m++) {
      symbol.applyMask(m);
      symbol.drawFormat(LEVEL_BITS[level], m);
      const p = symbol.penalty();
      if (p < lowest) {
        lowest = p;
        best = m;
      }
      symbol.applyMask(m);
    }
  }
  symbol.applyMask(best);
  symbol.drawFormat(LEVEL_BITS[level], best);
  return { version, level, mask: best, size: symbol.size, modules: Array.from(symbol.dark) };
}

// ------------------------------------------------------------- draw --

const SVG = "http://www.w3.org/2000/svg";

// Draws `qr` into the <svg> `svg`: dark modules on white, with the quiet
// zone of four modules the readers need.
export function drawQr(svg, qr) {
  const n = qr.size;
  svg.textContent = "";
  svg.setAttribute("viewBox", `-4 -4 ${n + 8} ${n + 8}`);
  svg.setAttribute("shape-rendering", "crispEdges");
  const back = document.createElementNS(SVG, "rect");
  for (const [k, v] of [["x", -4], ["y", -4], ["width", n + 8], ["height", n + 8], ["fill", "#fff"]]) back.setAttribute(k, v);
  let d = "";
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      if (!qr.modules[y * n + x]) continue;
      let run = 1;
      while (x + run < n && qr.modules[y * n + x + run]) run++;
      d += `M${x} ${y}h${run}v1h-${run}z`;
      x += run - 1;
    }
  }
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("d", d);
  path.setAttribute("fill", "#000");
  svg.append(back, path);
}
