// Markdown in the record pane (markdown.ts) and the span wrapping under it (spans.ts): what each
// construct reads as on a terminal, widths counted in cells, and no escape sequence let through.

import {beforeAll, describe, expect, it} from 'vitest';
import {loadMarkdown, markdownLines, markdownReady} from '../../source/ui/markdown.js';
import {cutLine, lineWidth, padLine, plainLine, wrapSpans, type StyledLine} from '../../source/ui/spans.js';
import {cellWidth} from '../../source/ui/width.js';

const text = (lines: StyledLine[]) => lines.map(line => plainLine(line).trimEnd());
const spanWith = (lines: StyledLine[], words: string) => lines.flat().find(span => span.text.includes(words));

describe('before the lexer is loaded (it loads after the first frame)', () => {
	it('draws long text as plain wrapped lines, still sanitized and within the width', () => {
		expect(markdownReady()).toBe(false);
		expect(text(markdownLines('# Title\n\nsome \u001b[31mtext\u001b[0m here and more', 24))).toEqual(['# Title', '', 'some ␛[31mtext␛[0m here', 'and more']);
	});
});

describe('markdownLines', () => {
	beforeAll(loadMarkdown);

	it('draws headings without their marks, bold, the big ones underlined', () => {
		const lines = markdownLines('# Crash on save\n\n### Steps', 40);
		expect(text(lines)).toEqual(['Crash on save', '', 'Steps']);
		expect(spanWith(lines, 'Crash')).toMatchObject({bold: true, underline: true});
		expect(spanWith(lines, 'Steps')).toMatchObject({bold: true, underline: false});
	});

	it('styles emphasis, strong, strikethrough and code spans, and drops their marks', () => {
		const lines = markdownLines('It is *very* **slow**, ~~fast~~ in `save()`.', 60);
		expect(text(lines)).toEqual(['It is very slow, fast in save().']);
		expect(spanWith(lines, 'very')).toMatchObject({italic: true});
		expect(spanWith(lines, 'slow')).toMatchObject({bold: true});
		expect(spanWith(lines, 'fast')).toMatchObject({strikethrough: true});
		expect(spanWith(lines, 'save()')).toMatchObject({color: 'yellow'});
	});

	it('shows a link as its text and its address, an autolink once', () => {
		const lines = markdownLines('See [the log](https://example.org/log) or https://example.org/x', 80);
		expect(text(lines)).toEqual(['See the log <https://example.org/log> or https://example.org/x']);
		expect(spanWith(lines, 'the log')).toMatchObject({underline: true, color: 'cyan'});
	});

	it('keeps code blocks as written (spaces too), indented, cut hard at the width', () => {
		const lines = markdownLines('```js\nif (x) {\n    save();\n}\n```', 40);
		expect(text(lines)).toEqual(['js', '  if (x) {', '      save();', '  }']);
		expect(spanWith(lines, 'save')).toMatchObject({color: 'yellow'});
		const long = markdownLines(`\`\`\`\n${'x'.repeat(30)}\n\`\`\``, 12);
		expect(text(long)).toEqual(['  xxxxxxxxxx', '  xxxxxxxxxx', '  xxxxxxxxxx']);
	});

	it('draws lists with bullets or numbers, nested ones indented, tasks with their box', () => {
		expect(text(markdownLines('- one\n- two\n  1. inner\n  2. more\n- [x] done\n  with notes', 40))).toEqual(['• one', '• two', '  1. inner', '  2. more', '• [x] done', '      with notes']);
		// A long item wraps under its own text, not under the bullet.
		expect(text(markdownLines('- alpha beta gamma delta', 14))).toEqual(['• alpha beta', '  gamma delta']);
	});

	it('puts block quotes behind a bar, dimmed', () => {
		const lines = markdownLines('> it worked\n> before', 30);
		expect(text(lines)).toEqual(['│ it worked', '│ before']);
		expect(lines.flat().every(span => span.dim)).toBe(true);
	});

	it('lays tables out in aligned columns under a bold header', () => {
		const lines = markdownLines('| OS | Crashes |\n|---|---|\n| macOS | yes |\n| Windows 11 | no |', 60);
		expect(text(lines)).toEqual(['OS         │ Crashes', '───────────┼────────', 'macOS      │ yes', 'Windows 11 │ no']);
		expect(spanWith(lines, 'OS')).toMatchObject({bold: true});
		// Too wide: the widest column gives way, and no line is wider than the pane.
		for (const line of markdownLines('| a | b |\n|---|---|\n| '.concat('x'.repeat(50), ' | y |'), 20)) expect(lineWidth(line)).toBeLessThanOrEqual(20);
	});

	it('keeps the lines of plain text and decodes entities', () => {
		expect(text(markdownLines('first line\nsecond line\n\nnext paragraph &amp; more', 40))).toEqual(['first line', 'second line', '', 'next paragraph & more']);
	});

	it('wraps by terminal cells: CJK and emoji take two each, nothing wider than the width', () => {
		const lines = markdownLines('保存するとアプリが落ちます。再現手順は以下の通りです。 🐛🐛🐛 done', 10);
		for (const line of lines) expect(lineWidth(line)).toBeLessThanOrEqual(10);
		expect(text(lines).join('')).toContain('保存するとアプリが落ちます');
		expect(text(lines)[0]).toBe('保存すると');
	});

	it('lets no escape sequence through: ESC, CSI, OSC, C1 and bidi controls are made visible', () => {
		const hostile = '# \u001b[31mred\u001b[0m\n\nclick \u001b]8;;https://evil\u0007here\u001b]8;;\u0007 `\u001b[2J` [x](https://a\u001b[1m) &#27;[5m &#x9b;2J \u202egnp.exe\n\n```\n\u001b]0;title\u0007\n```';
		const lines = markdownLines(hostile, 60);
		const all = lines.map(line => plainLine(line)).join('\n');
		expect(all).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
		expect(all).toContain('␛[31mred');
		expect(all).toContain('␛]8;;https://evil␇here');
	});

	it('never returns a line wider than the width, whatever the input', () => {
		const body = '## A heading that is rather long indeed\n\n- a list item that goes on and on and on\n\n> a quote that goes on and on\n\n| a | b | c |\n|---|---|---|\n| 1 | 2 | 3 |\n\n---\n\nsupercalifragilisticexpialidocious';
		for (const width of [4, 9, 20, 33]) {
			for (const line of markdownLines(body, width)) expect(lineWidth(line), plainLine(line)).toBeLessThanOrEqual(width);
		}
	});
});

describe('spans', () => {
	it('wrapSpans breaks at spaces, mid-word only when a word is wider than the line, and keeps styles', () => {
		const lines = wrapSpans([{text: 'make the '}, {text: 'build', bold: true}, {text: ' green again'}], 10);
		expect(lines.map(line => plainLine(line))).toEqual(['make the', 'build', 'green', 'again']);
		expect(lines[1]).toEqual([{text: 'build', bold: true}]);
		expect(wrapSpans([{text: 'abcdefghij'}], 4).map(line => plainLine(line))).toEqual(['abcd', 'efgh', 'ij']);
	});

	it('cutLine ends a cut line in its marker, by cells, never splitting a wide character over the edge', () => {
		expect(plainLine(cutLine([{text: '漢字漢字'}], 5))).toBe('漢字…');
		expect(cellWidth(plainLine(cutLine([{text: '漢字漢字'}], 5)))).toBeLessThanOrEqual(5);
		expect(cutLine([{text: 'short'}], 10)).toEqual([{text: 'short'}]);
		expect(plainLine(padLine([{text: 'ab'}, {text: 'cdef', color: 'red'}], 4, '~'))).toBe('abc~');
		expect(plainLine(padLine([{text: 'ab'}], 4))).toBe('ab  ');
	});
});
