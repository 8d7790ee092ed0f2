// The key handlers as plain functions: given the screen's state and actions, which one a key
// triggers. The app and pty tests drive the same handlers through a real Ink app.

import type {Key} from 'ink';
import {describe, expect, it} from 'vitest';
import type {KeyContext} from '../../source/ui/input/context.js';
import {onListKey} from '../../source/ui/input/list.js';
import {onQueueKey} from '../../source/ui/input/queue.js';
import {routeKey, scopeOf} from '../../source/ui/input/route.js';
import type {Overlay} from '../../source/ui/state.js';

type Call = [string, ...unknown[]];

/** A context whose actions record what they were asked to do, over the state given. */
function recording(state: {overlay?: Overlay; runActive?: boolean; queueLength?: number; options?: number} = {}) {
	const calls: Call[] = [];
	const record = (name: string) => (...args: unknown[]) => {
		calls.push([name, ...args]);
	};

	let scroll = 0;
	const context = {
		overlay: state.overlay ?? {kind: 'none'},
		setOverlay: record('setOverlay'),
		say: record('say'),
		quit: record('quit'),
		relist: record('relist'),
		setPane: record('setPane'),
		setPaneScroll: (update: (lines: number) => number) => {
			scroll = update(scroll);
			calls.push(['scroll', scroll]);
		},
		run: {active: state.runActive ?? false},
		page: {window: {rows: [], cursor: 0, firstPage: 0}, query: {}, move: record('move'), moveTo: record('moveTo')},
		pageRows: 20,
		followUps: {queue: Array.from({length: state.queueLength ?? 0}), refreshCount: record('refreshCount')},
		queue: {
			queueEntry: state.options === undefined ? null : {followUp: {key: 'status', attempted: 'In progress', allowed: Array.from({length: state.options}, (_, index) => ({value: `v${index}`, label: `V${index}`}))}},
			queueField: null,
			resolveQueue: record('resolveQueue'),
			openQueue: record('openQueue'),
		},
		edit: {openEdit: record('openEdit'), undoLast: record('undoLast')},
		showHistory: record('showHistory'),
	} as unknown as KeyContext;
	return {context, calls};
}

const noKey = {} as Key;

describe('scopeOf', () => {
	it('sends keys to the scope the open overlay puts them in', () => {
		expect(scopeOf({kind: 'none'})).toBe('list');
		expect(scopeOf({kind: 'help'})).toBe('help');
		expect(scopeOf({kind: 'queue', index: 0, optionCursor: 0, typing: null, problem: null, confirmDismiss: false})).toBe('queue');
		expect(scopeOf({kind: 'queue', index: 0, optionCursor: 0, typing: null, problem: null, confirmDismiss: true})).toBe('confirm');
		expect(scopeOf({kind: 'confirm', question: 'q', action: 'quit'})).toBe('confirm');
		expect(scopeOf({kind: 'history', cursor: 0, open: false})).toBe('history');
	});
});

describe('routeKey', () => {
	it('Ctrl+C quits at once when no run is active', () => {
		const {context, calls} = recording();
		routeKey(context, 'c', {ctrl: true} as Key);
		expect(calls).toEqual([['quit']]);
	});

	it('Ctrl+C asks first while a run is active', () => {
		const {context, calls} = recording({runActive: true});
		routeKey(context, 'c', {ctrl: true} as Key);
		expect(calls).toEqual([['setOverlay', expect.objectContaining({kind: 'confirm', action: 'quit'})]]);
	});

	it('q asks first during a run, and x says so when there is none', () => {
		const during = recording({runActive: true});
		routeKey(during.context, 'q', noKey);
		expect(during.calls[0]).toEqual(['setOverlay', expect.objectContaining({kind: 'confirm', action: 'quit'})]);
		const idle = recording();
		routeKey(idle.context, 'x', noKey);
		expect(idle.calls).toEqual([['say', 'No run is active.', 'warn']]);
	});
});

describe('onListKey', () => {
	it('moves by one row, and by a screen less one on page keys', () => {
		const {context, calls} = recording();
		onListKey(context, 'down');
		onListKey(context, 'pageDown');
		onListKey(context, 'pageUp');
		expect(calls).toEqual([['move', 1], ['move', 19], ['move', -19]]);
	});

	it('J and K scroll the record pane by five lines, never above the top', () => {
		const {context, calls} = recording();
		onListKey(context, 'scrollPaneDown');
		onListKey(context, 'scrollPaneUp');
		onListKey(context, 'scrollPaneUp');
		expect(calls).toEqual([['scroll', 5], ['scroll', 0], ['scroll', 0]]);
	});
});

describe('onQueueKey', () => {
	const queueOverlay: Overlay = {kind: 'queue', index: 0, optionCursor: 2, typing: null, problem: null, confirmDismiss: false};

	it('moves through the allowed values, wrapping at the end', () => {
		const {context, calls} = recording({overlay: queueOverlay, queueLength: 2, options: 3});
		onQueueKey(context, 'down');
		expect(calls).toEqual([['setOverlay', {...queueOverlay, optionCursor: 0}]]);
	});

	it('sets the chosen allowed value', () => {
		const {context, calls} = recording({overlay: queueOverlay, queueLength: 2, options: 3});
		onQueueKey(context, 'choose');
		expect(calls).toEqual([['resolveQueue', 'v2']]);
	});

	it('goes to the next follow-up, wrapping, and closing refreshes the header count', () => {
		const {context, calls} = recording({overlay: {...queueOverlay, index: 1}, queueLength: 2, options: 3});
		onQueueKey(context, 'skip');
		onQueueKey(context, 'cancel');
		expect(calls).toEqual([['setOverlay', {...queueOverlay, index: 0, optionCursor: 0}], ['setOverlay', {kind: 'none'}], ['refreshCount']]);
	});
});
