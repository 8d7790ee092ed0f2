import {describe, expect, it} from 'vitest';
import type {AsyncStore} from '../../store/api.js';
import {appDemo, renderApp, tick} from './helpers.js';

// The start's order (docs/architecture.md#start-up): the first rows are drawn before the views'
// counts (worker threads at scale) and the header's counts begin, so neither holds up the first
// frame; once the rows are up, they run as before.

const demo = appDemo(30);

/** The store with its first listing held until `release`, and each count asked for noted in `asked`. */
function gatedStore(store: AsyncStore) {
	const asked: string[] = [];
	let release!: () => void;
	const gate = new Promise<void>(resolve => {
		release = resolve;
	});
	const counted = <A extends unknown[], R>(name: string, count: (...args: A) => Promise<R>) => async (...args: A) => {
		asked.push(name);
		return count(...args);
	};

	const gated = new Proxy(store, {
		get(target, property) {
			const value = Reflect.get(target, property, target) as unknown;
			if (property === 'listPage') {
				return async (...args: Parameters<AsyncStore['listPage']>) => {
					await gate;
					return target.listPage(...args);
				};
			}

			if (property === 'countMatches') return counted('countMatches', target.countMatches.bind(target));
			if (property === 'countOpenFollowUps') return counted('countOpenFollowUps', target.countOpenFollowUps.bind(target));
			if (property === 'proposals') return {...target.proposals, countOpen: counted('proposals.countOpen', target.proposals.countOpen.bind(target.proposals))};
			return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
		},
	});
	return {store: gated, asked, release};
}

describe('the TUI\'s start', () => {
	it('counts nothing until the first rows are drawn; then the views and the header are counted', async () => {
		const {store, asked, release} = gatedStore(demo.store);
		const app = renderApp(store);
		try {
			// The screen is up (header and tabs), its listing held.
			await app.waitFor(frame => frame.includes('1 Inbox'));
			await tick(200);
			expect(asked).toEqual([]);
			release();
			await app.waitFor(frame => /row 1\b/.test(frame));
			await app.waitFor(frame => /4 All 30\b/.test(frame));
			expect(new Set(asked)).toEqual(new Set(['countMatches', 'countOpenFollowUps', 'proposals.countOpen']));
		} finally {
			release();
			app.unmount();
		}
	});
});
