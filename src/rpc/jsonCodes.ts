/** The character codes JSON's structure is made of (the same as bytes in UTF-8), for scanners that do not parse. */
export const QUOTE = 0x22
export const BACKSLASH = 0x5c
export const OPEN_BRACE = 0x7b
export const CLOSE_BRACE = 0x7d
export const OPEN_BRACKET = 0x5b
export const CLOSE_BRACKET = 0x5d
export const COMMA = 0x2c
export const COLON = 0x3a

/** JSON's whitespace: space, line feed, carriage return, tab. */
export const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09
