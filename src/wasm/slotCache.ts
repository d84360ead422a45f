// The host's slot values for the frame being run, keyed by the raw 32-byte key as the wasm module
// writes it: an SLOAD found here costs no string and no allocation. (A hex key and a Map lookup,
// the overlay's way, took about 0.7 µs an SLOAD in bench/wasmGate.ts, this cache about 50 ns; the
// interpreter's own work is about 5 ns a step.) Keys and values are eight 32-bit words each, read
// and written through an Int32Array over the module's memory. Keyed by slot only: one frame, one
// address.

const INITIAL_BITS = 8

export class SlotCache {
  private bits = INITIAL_BITS
  private mask = (1 << INITIAL_BITS) - 1
  private keys = new Int32Array(8 << INITIAL_BITS)
  private values = new Int32Array(8 << INITIAL_BITS)
  /** The generation that filled each entry: clear() bumps the generation instead of zeroing. */
  private stamps = new Uint32Array(1 << INITIAL_BITS)
  private generation = 1
  private count = 0

  /** Forgets every entry. */
  clear() {
    this.generation++
    this.count = 0
  }

  /** Mixes the key's eight words, then murmur3's finaliser (a small slot differs only in its last word's high byte). */
  private static hash(m: Int32Array, at: number): number {
    let h = 0x2545f491
    for (let i = at; i < at + 8; i++) h = Math.imul(h ^ m[i]!, 0x9e3779b1) ^ (h >>> 16)
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b)
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35)
    return h ^ (h >>> 16)
  }

  /** The entry of the key (eight words at m[at..]), or -1. */
  find(m: Int32Array, at: number): number {
    const { keys, stamps, generation, mask } = this
    for (let i = SlotCache.hash(m, at) & mask; ; i = (i + 1) & mask) {
      if (stamps[i] !== generation) return -1
      const k = i << 3
      if (
        keys[k] === m[at] &&
        keys[k + 1] === m[at + 1] &&
        keys[k + 2] === m[at + 2] &&
        keys[k + 3] === m[at + 3] &&
        keys[k + 4] === m[at + 4] &&
        keys[k + 5] === m[at + 5] &&
        keys[k + 6] === m[at + 6] &&
        keys[k + 7] === m[at + 7]
      )
        return i
    }
  }

  /** Copies the entry's value to m[to..]. */
  read(entry: number, m: Int32Array, to: number) {
    const v = this.values
    const k = entry << 3
    m[to] = v[k]!
    m[to + 1] = v[k + 1]!
    m[to + 2] = v[k + 2]!
    m[to + 3] = v[k + 3]!
    m[to + 4] = v[k + 4]!
    m[to + 5] = v[k + 5]!
    m[to + 6] = v[k + 6]!
    m[to + 7] = v[k + 7]!
  }

  /** Sets the key's (m[at..]) value to the word at m[from..]. */
  write(m: Int32Array, at: number, from: number) {
    const i = this.find(m, at)
    if (i >= 0) this.values.set(m.subarray(from, from + 8), i << 3)
    else {
      if ((this.count + 1) * 2 > this.mask + 1) this.grow()
      this.insert(m, at, m, from)
    }
  }

  /** Adds a key known to be absent. */
  private insert(keySource: Int32Array, at: number, valueSource: Int32Array, from: number) {
    const { stamps, generation, mask } = this
    let i = SlotCache.hash(keySource, at) & mask
    while (stamps[i] === generation) i = (i + 1) & mask
    stamps[i] = generation
    this.keys.set(keySource.subarray(at, at + 8), i << 3)
    this.values.set(valueSource.subarray(from, from + 8), i << 3)
    this.count++
  }

  private grow() {
    const { keys, values, stamps, generation } = this
    this.bits++
    this.mask = (1 << this.bits) - 1
    this.keys = new Int32Array(8 << this.bits)
    this.values = new Int32Array(8 << this.bits)
    this.stamps = new Uint32Array(1 << this.bits)
    this.count = 0
    for (let i = 0; i < stamps.length; i++) if (stamps[i] === generation) this.insert(keys, i << 3, values, i << 3)
  }
}
