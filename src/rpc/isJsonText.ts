const QUOTE = 0x22
const BACKSLASH = 0x5c

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09

/** A number or literal as JSON writes it (sticky: matched where the scan is). */
const SCALAR = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|true|false|null/y
const HEX4 = /^[0-9a-fA-F]{4}$/

/** Where the string opened at `open` closes, or -1 if it is not a valid JSON string before `end`. */
function validStringEnd(text: string, open: number, end: number): number {
  for (let i = open + 1; i < end; i++) {
    const c = text.charCodeAt(i)
    if (c === QUOTE) return i
    if (c < 0x20) return -1 // control characters must be escaped
    if (c === BACKSLASH) {
      if (++i >= end) return -1
      const e = text[i]!
      if (e === 'u') {
        if (i + 4 >= end || !HEX4.test(text.slice(i + 1, i + 5))) return -1
        i += 4
      } else if (!'"\\/bfnrt'.includes(e)) return -1
    }
  }
  return -1
}

/** Where the number or literal at `at` ends (before `end`), or -1 if there is none. */
function scalarEnd(text: string, at: number, end: number): number {
  SCALAR.lastIndex = at
  if (!SCALAR.test(text)) return -1
  if (SCALAR.lastIndex <= end) return SCALAR.lastIndex
  // It runs on past the end: what is before the end alone.
  SCALAR.lastIndex = 0
  return SCALAR.test(text.slice(at, end)) ? at + SCALAR.lastIndex : -1
}

// What may come next: a value (`]` too right after `[`), a member name (`}` too right after `{`), a
// colon, or what follows a value (`,`, a close, or the end when nothing is open).
const VALUE = 0
const NAME = 1
const COLON = 2
const AFTER = 3

/**
 * Whether `text.slice(start, end)` is one JSON value, exactly as JSON.parse would accept it, checked
 * in one pass with an explicit stack (no recursion, nothing built). The JSON-RPC core uses it on the
 * requests it cuts out unparsed for nesting too deep: malformed JSON is a parse error (-32700)
 * however deep it is, and JSON.parse never sees those parts.
 */
export function isJsonText(text: string, start = 0, end = text.length): boolean {
  /** Open containers, innermost last: true for an object. */
  const open: boolean[] = []
  let expect = VALUE
  /** Just after `[` or `{`: it may close at once. */
  let fresh = false
  let i = start
  for (;;) {
    while (i < end && isSpace(text.charCodeAt(i))) i++
    if (i >= end) return expect === AFTER && open.length === 0
    const c = text[i]!
    const inObject = open[open.length - 1]
    const mayClose = fresh
    fresh = false
    if (expect === VALUE) {
      if (c === '{' || c === '[') {
        open.push(c === '{')
        expect = c === '{' ? NAME : VALUE
        fresh = true
        i++
      } else if (c === ']' && mayClose && inObject === false) {
        open.pop()
        expect = AFTER
        i++
      } else if (c === '"') {
        const close = validStringEnd(text, i, end)
        if (close < 0) return false
        expect = AFTER
        i = close + 1
      } else {
        i = scalarEnd(text, i, end)
        if (i < 0) return false
        expect = AFTER
      }
    } else if (expect === NAME) {
      if (c === '}' && mayClose) {
        open.pop()
        expect = AFTER
      } else if (c === '"') {
        const close = validStringEnd(text, i, end)
        if (close < 0) return false
        expect = COLON
        i = close
      } else return false
      i++
    } else if (expect === COLON) {
      if (c !== ':') return false
      expect = VALUE
      i++
    } else {
      if (inObject === undefined) return false // something after the whole value
      if (c === ',') expect = inObject ? NAME : VALUE
      else if (c === (inObject ? '}' : ']')) open.pop()
      else return false
      i++
    }
  }
}
