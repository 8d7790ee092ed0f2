// The tracker's comments as the record pane's lines (record-lines.ts): none drawn when a record has
// none; "Comments (N)" says when only the newest are shown; a failed read is said, the fields stay;
// a new read of the comments is drawn (not an earlier build of the same item); the author's
// escape sequences are drawn as marks.

import {beforeAll, describe, expect, it} from 'vitest';
import {bugsChannel} from '../../demo-data/generate.js';
import type {Field, Item, RemoteComment} from '../../store/index.js';
import {loadMarkdown} from '../../source/ui/markdown.js';
import {recordLines, type RecordView} from '../../source/ui/record-lines.js';
import {plainLine} from '../../source/ui/spans.js';

const fields = bugsChannel.fields as Field[];
const item: Item = {id: 'itm_1', channel_id: 'bugs', version: 2, created_at: '', updated_at: '2026-11-30T10:00:00Z', values: {ticket: 'BUG-0001', title: 'Crash'}};
const comment = (id: string, author: string | null, body: string): RemoteComment => ({remote_id: id, author, body, created_at: `2026-03-0${id}T10:00:00Z`, updated_at: `2026-03-0${id}T10:00:00Z`});
const view = (comments: RecordView['comments']): RecordView => ({fields, item, flagged: new Set(), width: 60, today: '2026-12-01', comments});
const text = (record: RecordView) => recordLines(record).map(line => plainLine(line));

describe('comments in the record pane', () => {
	beforeAll(loadMarkdown);

	it('draws nothing for a record without comments, or before they are read', () => {
		const bare = text(view(undefined));
		expect(text(view({comments: [], total: 0}))).toEqual(bare);
		expect(bare.join('\n')).not.toContain('Comments');
	});

	it('says when only the newest are shown, each under its author and time; an unknown author is said', () => {
		const lines = text(view({comments: [comment('2', 'aiko', 'first *read*'), comment('3', null, 'second')], total: 7}));
		const head = lines.indexOf('Comments (7, the newest 2 shown)');
		expect(head).toBeGreaterThan(0);
		expect(lines.slice(head + 1)).toEqual(['aiko · 2026-03-02 10:00', '  first read', 'unknown · 2026-03-03 10:00', '  second']);
	});

	it('says a failed read under the fields, and draws a new read of the same item', () => {
		const failed = text(view({error: 'disk \u001B[31mgone'}));
		expect(failed).toContain('Comments could not be read: disk ␛[31mgone');
		expect(failed).toContain('Title        Crash');
		expect(text(view({comments: [comment('1', 'ren', 'now read')], total: 1}))).toContain('Comments (1)');
	});

	it('draws escape sequences in the author as visible marks', () => {
		const lines = text(view({comments: [comment('1', 'ev\u001B[2Jil', 'hi')], total: 1}));
		expect(lines).toContain('ev␛[2Jil · 2026-03-01 10:00');
		expect(lines.join('\n')).not.toContain('\u001B');
	});
});
