// Line splitting and parsing.

import {describe, expect, it} from 'vitest';
import {LineSplitter, parseEventLine} from '../../source/codex/stream.js';

describe('LineSplitter', () => {
	it('joins lines split across chunks, including a UTF-8 character cut in half', () => {
		const splitter = new LineSplitter();
		const bytes = Buffer.from('{"a":"日本"}\r\n{"b":1}\npartial');
		const cut = bytes.indexOf(Buffer.from('本')) + 1;
		expect(splitter.push(bytes.subarray(0, cut))).toEqual([]);
		expect(splitter.push(bytes.subarray(cut))).toEqual(['{"a":"日本"}', '{"b":1}']);
		expect(splitter.flush()).toEqual(['partial']);
		expect(splitter.flush()).toEqual([]);
	});

	it('keeps empty lines as lines', () => {
		expect(new LineSplitter().push('\n\nx\n')).toEqual(['', '', 'x']);
	});
});

describe('parseEventLine', () => {
	it('returns objects with a string type', () => {
		expect(parseEventLine('{"type":"turn.started"}')).toEqual({type: 'turn.started'});
		expect(parseEventLine('  {"type":"x","n":1}  ')).toEqual({type: 'x', n: 1});
	});

	it('skips anything else without throwing', () => {
		for (const line of ['', 'Reading prompt from stdin...', '[1,2]', '{"type":1}', '{"no":"type"}', '{"type":"x"', 'null', '"{}"']) {
			expect(parseEventLine(line)).toBeUndefined();
		}
	});
});
