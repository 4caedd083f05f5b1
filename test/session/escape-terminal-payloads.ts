/**
 * What a model, a tool, an MCP server or a repository can put in text to rewrite what a
 * terminal shows (F15 in SECURITY.md): each payload, and how agentd must show it instead.
 */
export const PAYLOADS: Array<{ name: string; raw: string; shown: string }> = [
  { name: 'the finding: CR and erase-line, then a harmless title', raw: 'rm -f precious.txt #\r\x1b[2Kagentd: Run: npm test', shown: 'rm -f precious.txt #\\r\\e[2Kagentd: Run: npm test' },
  { name: 'erase-line without CR', raw: 'rm -f precious.txt \x1b[2K npm test', shown: 'rm -f precious.txt \\e[2K npm test' },
  { name: 'cursor up over the line before', raw: 'rm -f precious.txt\x1b[1A\x1b[2Knpm test', shown: 'rm -f precious.txt\\e[1A\\e[2Knpm test' },
  { name: 'OSC 0 window title (BEL-terminated)', raw: 'rm -f precious.txt \x1b]0;npm test\x07', shown: 'rm -f precious.txt \\e]0;npm test\\a' },
  { name: 'OSC 8 hyperlink (ST-terminated)', raw: '\x1b]8;;https://evil.example/\x1b\\npm test\x1b]8;;\x1b\\', shown: '\\e]8;;https://evil.example/\\e\\npm test\\e]8;;\\e\\' },
  { name: 'C1 CSI (U+009B) erase-line', raw: 'rm -f precious.txt \x9b2K npm test', shown: 'rm -f precious.txt \\x9b2K npm test' },
  { name: 'C1 NEL (U+0085) and OSC (U+009D)', raw: 'rm -f precious.txt\x85\x9d0;x\x9cnpm test', shown: 'rm -f precious.txt\\x85\\x9d0;x\\x9cnpm test' },
  { name: 'backspaces over the dangerous part', raw: 'rm -f precious.txt\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b\bnpm test', shown: `rm -f precious.txt${'\\b'.repeat(19)}npm test` },
  { name: 'DEL characters', raw: 'rm -f precious.txt\x7f\x7f npm test', shown: 'rm -f precious.txt\\x7f\\x7f npm test' },
  { name: 'CR alone', raw: 'rm -rf ~/work                 \rnpm test', shown: 'rm -rf ~/work                 \\rnpm test' },
  { name: 'right-to-left override (U+202E)', raw: 'npm test \u202e; ~ fr- mr', shown: 'npm test \\u202e; ~ fr- mr' },
  { name: 'bidi isolates (U+2066, U+2069) and a mark (U+200F)', raw: '\u2066rm -rf ~\u2069\u200f npm test', shown: '\\u2066rm -rf ~\\u2069\\u200f npm test' },
  { name: 'Unicode line separator (U+2028)', raw: 'rm -rf ~\u2028npm test', shown: 'rm -rf ~\\u2028npm test' },
  { name: 'NUL, vertical tab and form feed', raw: 'rm\0 -rf\v ~\f npm test', shown: 'rm\\0 -rf\\v ~\\f npm test' },
];

/** Any character a terminal acts on, except the newline (checked where it is kept). */
export const ACTS_ON_TERMINAL = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
