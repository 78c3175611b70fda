import { sanitizeTerminalLine } from '../src/lib/terminal-text';

// Agent output reaches the browser terminal as text and 16-colour SGR only (docs/dashboard.md).
describe('sanitizeTerminalLine', () => {
  test.each([
    ['plain text', 'hello world', 'hello world'],
    ['16-colour SGR kept', '\x1b[31mred\x1b[0m', '\x1b[31mred\x1b[0m'],
    ['bold + bright kept', '\x1b[1;92mok\x1b[m', '\x1b[1;92mok\x1b[m'],
    ['truecolour SGR dropped', '\x1b[38;2;1;2;3mx\x1b[0m', 'x\x1b[0m'],
    ['256-colour SGR dropped', '\x1b[38;5;200mx', 'x'],
    ['OSC window title dropped', '\x1b]0;pwned\x07text', 'text'],
    ['OSC 8 hyperlink dropped', '\x1b]8;;javascript:alert(1)\x1b\\link\x1b]8;;\x1b\\', 'link'],
    ['OSC 52 clipboard write dropped', '\x1b]52;c;ZXZpbA==\x07after', 'after'],
    ['cursor movement dropped', 'a\x1b[2Jb\x1b[10;10Hc', 'abc'],
    ['mode switch (alternate screen, mouse) dropped', '\x1b[?1049h\x1b[?1000hx', 'x'],
    ['DCS dropped', '\x1bPq#0;2;0;0;0\x1b\\x', 'x'],
    ['C1 CSI dropped', '\x9b2Jx', 'x'],
    ['bell, backspace, NUL, CR and LF dropped', 'a\x07b\x08c\x00d\re\nf', 'abcdef'],
    ['tab kept', 'a\tb', 'a\tb'],
    ['a lone ESC dropped', 'a\x1b', 'a'],
    ['the private-use marker cannot smuggle an ESC', '\uE000[2J', '[2J'],
    ['HTML stays text', '<script>alert(1)</script>', '<script>alert(1)</script>'],
  ])('%s', (_name, input, expected) => {
    expect(sanitizeTerminalLine(input)).toBe(expected);
  });
});
