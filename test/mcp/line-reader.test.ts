// The size-limited line reader.

import {describe, expect, it} from 'vitest';
import {LINE_EDGE_BYTES, LineReader} from '../../source/mcp/line-reader.js';
import {idAtEdges} from '../../source/mcp/stdio-transport.js';

const feed = (reader: LineReader, ...parts: string[]) => parts.flatMap(part => reader.push(Buffer.from(part)));

describe('LineReader', () => {
	it('splits lines across chunks, drops a trailing CR, and keeps a partial line for later', () => {
		const reader = new LineReader(100);
		expect(feed(reader, 'ab', 'c\nde', 'f\r\n\ng')).toEqual([
			{kind: 'line', text: 'abc'},
			{kind: 'line', text: 'def'},
			{kind: 'line', text: ''},
		]);
		expect(feed(reader, 'h\n')).toEqual([{kind: 'line', text: 'gh'}]);
	});

	it('joins a multi-byte character split between chunks', () => {
		const reader = new LineReader(100);
		const bytes = Buffer.from('é\n');
		expect([...reader.push(bytes.subarray(0, 1)), ...reader.push(bytes.subarray(1))]).toEqual([{kind: 'line', text: 'é'}]);
	});

	it('takes a line of exactly the limit, and turns a longer one into one oversized line with its edges, then reads on', () => {
		const reader = new LineReader(10);
		expect(feed(reader, '0123456789\n')).toEqual([{kind: 'line', text: '0123456789'}]);
		const long = `{"id":7,${'x'.repeat(2000)},"end":1}`;
		const lines = feed(reader, long.slice(0, 5), long.slice(5, 1500), `${long.slice(1500)}\nnext\n`);
		expect(lines).toHaveLength(2);
		expect(lines[0]).toEqual({kind: 'oversized', bytes: long.length, head: long.slice(0, LINE_EDGE_BYTES), tail: long.slice(-LINE_EDGE_BYTES)});
		expect(lines[1]).toEqual({kind: 'line', text: 'next'});
	});
});

describe('idAtEdges', () => {
	it('finds the id the TypeScript SDK writes last, and the one serde-style clients write first', () => {
		expect(idAtEdges('{"method":"tools/call","params":{', '"x"}},"jsonrpc":"2.0","id":42}')).toBe(42);
		expect(idAtEdges('{"jsonrpc":"2.0","id":"req-1","method":"tools/call"', '"x"}}}')).toBe('req-1');
		expect(idAtEdges('{"id":-3,"jsonrpc":"2.0"', 'x')).toBe(-3);
	});

	it('does not take an id nested in the params for the request\'s', () => {
		expect(idAtEdges('{"method":"tools/call","params":{"arguments":{"id":5,', '"values":{"id":9}}}}')).toBeUndefined();
		expect(idAtEdges('{"method":"x","params":{"id":5', 'no id here"}}')).toBeUndefined();
	});
});
