// The list's cells and rows as styled lines (components/list.tsx) and the columns chosen for a
// width (format.ts): cut markers, overdue dates, rows cut to the terminal, the ticket's width.

import {describe, expect, it} from 'vitest';
import {bugsChannel} from '../../demo-data/generate.js';
import type {Field} from '../../store/index.js';
import {cellLine, rowLine} from '../../source/ui/components/list.js';
import {chooseColumns, valuesWidth, type Column} from '../../source/ui/format.js';
import {isOverdue, today} from '../../source/ui/overdue.js';
import {lineWidth, plainLine} from '../../source/ui/spans.js';

const fields = bugsChannel.fields as Field[];
const field = (key: string) => fields.find(candidate => candidate.key === key)!;
const tags: Field = {key: 'tags', label: 'Tags', type: 'multi_select', is_required: false, is_unique: false, config: {options: [{value: 'billing', label: 'billing', color: 'blue'}, {value: 'refund', label: 'refund'}]}};
const column = (of: Field, width: number): Column => ({field: of, width, flex: false});
const row = (preview: Record<string, unknown>) => ({id: 'itm_1', version: 1, updated_at: '', preview});

describe('list cells', () => {
	it('defect 6: a multi-select cut after its first value says it was cut', () => {
		const cell = cellLine(column(tags, 7), ['billing', 'refund'], '2026-12-01');
		expect(plainLine(cell)).toBe('billin~');
		// What fits is shown whole, padded to the column.
		expect(plainLine(cellLine(column(tags, 16), ['billing', 'refund'], '2026-12-01'))).toBe('billing, refund ');
		expect(plainLine(cellLine(column(tags, 7), ['billing'], '2026-12-01'))).toBe('billing');
	});

	it('draws a date before today in the overdue style, from the day it is given', () => {
		const late = cellLine(column(field('due'), 10), '2026-11-30', '2026-12-01');
		expect(late[0]).toMatchObject({text: '2026-11-30', color: 'red', bold: true});
		expect(cellLine(column(field('due'), 10), '2026-12-01', '2026-12-01')[0]).not.toHaveProperty('bold');
		expect(isOverdue(field('due'), '2026-11-30', '2026-12-01')).toBe(true);
		expect(isOverdue(field('title'), '2026-11-30', '2026-12-01')).toBe(false);
		expect(isOverdue(field('due'), null, '2026-12-01')).toBe(false);
		expect(today(new Date(2026, 11, 1, 23, 30).getTime())).toBe('2026-12-01');
	});

	it('marks only due-like dates overdue: not when something was created, updated or closed', () => {
		const date = (key: string, label: string): Field => ({key, label, type: 'date', is_required: false, is_unique: false, config: {}});
		for (const [key, label] of [['created', 'Created'], ['updated_at', 'Updated'], ['closed', 'Closed on'], ['reported', 'Reported']] as const) {
			expect(isOverdue(date(key, label), '2026-11-30', '2026-12-01'), key).toBe(false);
			expect(cellLine(column(date(key, label), 10), '2026-11-30', '2026-12-01')[0], key).not.toHaveProperty('bold');
		}

		for (const [key, label] of [['due', 'Due'], ['due_date', 'Due date'], ['deadline', 'Deadline'], ['targetDate', 'Target'], ['when', 'Expires']] as const) {
			expect(isOverdue(date(key, label), '2026-11-30', '2026-12-01'), key).toBe(true);
		}
	});

	it('defect 21: a row is cut to the width it is drawn in, by cells', () => {
		const columns = [column(field('ticket'), 8), column(field('title'), 30)];
		const line = rowLine(row({ticket: 'BUG-0001', title: '保存するとアプリが落ちます 🐛 on save'}), columns, false, false, 24, '2026-12-01');
		expect(lineWidth(line)).toBeLessThanOrEqual(24);
		expect(plainLine(line).endsWith('~')).toBe(true);
	});
});

describe('columns', () => {
	it('never take more than the width, even at 30 columns', () => {
		for (const width of [10, 18, 28, 40, 78]) {
			const columns = chooseColumns(fields, width, 1, 8);
			const used = columns.reduce((sum, each) => sum + each.width, 0) + columns.length - 1;
			expect(used, `width ${width}`).toBeLessThanOrEqual(width);
		}
	});

	it('size the ticket column to its values, not a fixed width', () => {
		const rows = [row({ticket: 'BUG-0001'}), row({ticket: 'BUG-10042'})];
		expect(valuesWidth(field('ticket'), rows)).toBe(9);
		expect(valuesWidth(field('ticket'), [])).toBeUndefined();
		// Never narrower than the label, never wider than the cap.
		expect(valuesWidth(field('ticket'), [row({ticket: 'B1'})])).toBe('Ticket'.length);
		expect(valuesWidth(field('ticket'), [row({ticket: 'X'.repeat(60)})])).toBe(24);
		const columns = chooseColumns(fields, 118, 1, 9);
		expect(columns.find(each => each.field.key === 'ticket')?.width).toBe(9);
	});
});
