// LISTEN for committed events: one connection per store, shared by every listener. A notification
// is only a hint to read by cursor now; a lost one costs a poll interval, never an event.

import type pg from 'pg';
import type {Unlisten} from '../api.js';
import {connectionError, makeClient, type Target} from './connect.js';
import {EVENTS_CHANNEL} from './events.js';

type Listener = (sequence: number) => void;

export class EventListener {
	private client: pg.Client | undefined;
	private connecting: Promise<pg.Client> | undefined;
	private readonly listeners = new Map<string, Set<Listener>>();

	constructor(private readonly target: Target) {}

	async listen(channelId: string, onSequence: Listener): Promise<Unlisten> {
		await this.connection();
		let set = this.listeners.get(channelId);
		if (!set) {
			set = new Set();
			this.listeners.set(channelId, set);
		}

		set.add(onSequence);
		return async () => {
			this.listeners.get(channelId)?.delete(onSequence);
			if ([...this.listeners.values()].every(listeners => listeners.size === 0)) {
				await this.close();
			}
		};
	}

	async close(): Promise<void> {
		const client = this.client ?? (await this.connecting?.catch(() => undefined));
		this.client = undefined;
		this.connecting = undefined;
		await client?.end().catch(() => {});
	}

	private async connection(): Promise<pg.Client> {
		if (this.client) {
			return this.client;
		}

		this.connecting ??= this.connect();
		return this.connecting;
	}

	private async connect(): Promise<pg.Client> {
		const client = makeClient(this.target);
		client.on('notification', message => this.deliver(message.payload ?? ''));
		// A dropped connection ends push until the next listen(); readers keep reading by cursor.
		client.on('error', () => {
			if (this.client === client) {
				this.client = undefined;
				this.connecting = undefined;
			}
		});
		try {
			await client.connect();
			await client.query(`LISTEN ${EVENTS_CHANNEL}`);
		} catch (error) {
			this.connecting = undefined;
			await client.end().catch(() => {});
			throw connectionError(this.target, error);
		}

		this.client = client;
		return client;
	}

	private deliver(payload: string): void {
		const at = payload.lastIndexOf(':');
		const sequence = Number(payload.slice(at + 1));
		const listeners = this.listeners.get(payload.slice(0, at));
		if (at < 0 || !Number.isInteger(sequence) || !listeners) {
			return;
		}

		for (const listener of listeners) {
			listener(sequence);
		}
	}
}
