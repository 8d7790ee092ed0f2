// The event poll recovers from an unreadable file.

import {render} from 'ink-testing-library';
import {describe, expect, it} from 'vitest';
import {App} from '../../source/ui/app.js';
import {makeTheme} from '../../source/ui/theme.js';
import {idOfTicket} from '../support/pty-fixtures.js';
import {waitUntil} from '../support/wait.js';
import {appDemo} from './helpers.js';

// The app's event poll on a real SQLite file that another connection makes unreadable for a
// while. A connection that is already open keeps reading a file whatever its permissions or
// name, so the lever is the events table itself: renamed away, every poll fails ("no such
// table: events"); renamed back, polls succeed again.

const demo = appDemo(40, 'sift-live-');

function renderScreen() {
	// The store the app polls, counting its reads of the event log or, once the channel is gone, of
	// the channel list (to see retries happen rather than wait them out).
	let polls = 0;
	const store = new Proxy(demo.store, {
		get: (target, key) => {
			const value = Reflect.get(target, key) as unknown;
			if ((key !== 'pollEvents' && key !== 'listChannelNames') || typeof value !== 'function') return value;
			return async (...args: unknown[]) => {
				polls++;
				return (value as (...args: unknown[]) => Promise<unknown>).apply(target, args);
			};
		},
	});
	const instance = render(<App store={store} dbPath={demo.db.dbPath} theme={makeTheme({NO_COLOR: '1'})} run={{stateDir: demo.db.stateDir, codexConfig: []}} pollRetryMaxMs={200}/>);
	const frame = () => instance.lastFrame() ?? '';
	const waitFor = async (test: (text: string) => boolean, what: string, timeoutMs = 8000) => {
		await waitUntil(() => test(frame()), what, {timeoutMs}).catch((error: Error) => {
			throw new Error(`${error.message}; last frame:\n${frame()}`);
		});
		return frame();
	};
	/** Resolves once `count` more polls have been made. */
	const morePolls = async (count: number) => {
		const target = polls + count;
		await waitUntil(() => polls >= target, `${count} more polls of the store`);
	};

	return {...instance, frame, waitFor, morePolls};
}

const rowOf = (frame: string, ticket: string) => frame.split('\n').find(line => line.includes(ticket)) ?? '';

function editFromElsewhere(ticket: string, values: Record<string, unknown>) {
	const id = idOfTicket(demo.other, ticket);
	demo.other.editItem({channelId: 'bugs', itemId: id, values, actor: {kind: 'human'}, expectedVersion: demo.other.readItem('bugs', id).version});
}

describe('live updates recover', () => {
	it('after the event log could not be read for a while', async () => {
		const app = renderScreen();
		try {
			await app.waitFor(text => text.includes('BUG-0040'), 'the list');
			demo.other.db.exec('ALTER TABLE events RENAME TO events_away');
			let frame = await app.waitFor(text => text.includes('Live updates paused'), 'the paused notice');
			expect(frame).toContain('no such table: events');
			expect(frame).toContain('not live');
			// Several retries pass (the cap is 200 ms); the notice is not repeated or replaced.
			await app.morePolls(3);
			expect(app.frame()).toContain('Live updates paused');
			demo.other.db.exec('ALTER TABLE events_away RENAME TO events');
			frame = await app.waitFor(text => text.includes('Live updates resumed.'), 'the resumed notice');
			expect(frame).not.toContain('not live');
			editFromElsewhere('BUG-0039', {status: 'wont_fix', owner: 'mika'});
			await app.waitFor(text => /Won't fix\s+Mika/.test(rowOf(text, 'BUG-0039')), 'the row edited elsewhere');
		} finally {
			app.unmount();
		}
	});

	it('says once that the channel is gone, and resumes when it is listed again', async () => {
		const app = renderScreen();
		try {
			await app.waitFor(text => text.includes('BUG-0040'), 'the list');
			demo.other.db.pragma('foreign_keys = OFF');
			demo.other.db.exec("ALTER TABLE events RENAME TO events_away; UPDATE channels SET id = 'bugs_away' WHERE id = 'bugs'");
			const frame = await app.waitFor(text => text.includes('Channel bugs is no longer in this database'), 'the gone notice');
			expect(frame).toContain('not live');
			await app.morePolls(3);
			expect(app.frame()).toContain('Channel bugs is no longer in this database');
			demo.other.db.exec("UPDATE channels SET id = 'bugs' WHERE id = 'bugs_away'; ALTER TABLE events_away RENAME TO events");
			await app.waitFor(text => text.includes('Live updates resumed.'), 'the resumed notice');
			editFromElsewhere('BUG-0038', {status: 'wont_fix', owner: 'ren'});
			await app.waitFor(text => /Won't fix\s+Ren/.test(rowOf(text, 'BUG-0038')), 'the row edited elsewhere');
		} finally {
			app.unmount();
		}
	});
});
