// LISTEN for committed events: one connection per store, shared by every listener. A notification
// is only a hint to read by cursor now; a lost one costs a poll interval, never an event.

import type pg from 'pg';
import type {Unlisten} from '../contract.js';
import {connectionError, makeClient, type Target} from './connect.js';
import {EVENTS_CHANNEL} from './events.js';

type Listener = (sequence: number) => void;

const RECONNECT_MS = 500;

export class EventListener {
	private client: pg.Client | undefined;
	private connecting: Promise<pg.Client> | undefined;
	private readonly listeners = new Map<string, Set<Listener>>();
	private retry: NodeJS.Timeout | undefined;
	private closed = false;

	constructor(private readonly target: Target) {}

	async listen(channelId: string, onSequence: Listener): Promise<Unlisten> {
		this.closed = false;
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
		this.closed = true;
		clearTimeout(this.retry);
		const client = this.client ?? (await this.connecting?.catch(() => undefined));
		this.client = undefined;
		this.connecting = undefined;
		await client?.end().catch(() => {});
	}

	private reconnectSoon(): void {
		const listening = [...this.listeners.values()].some(listeners => listeners.size > 0);
		if (this.closed || !listening) {
			return;
		}

		clearTimeout(this.retry);
		this.retry = setTimeout(() => {
			this.connection().catch(() => this.reconnectSoon());
		}, RECONNECT_MS);
		// A pending retry never keeps the process alive on its own.
		this.retry.unref();
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
		// A dropped connection (a server restart, a killed backend) is replaced while anyone listens;
		// what was committed meanwhile is found by the readers' cursors, not replayed here.
		const dropped = () => {
			if (this.client !== client) {
				return;
			}

			this.client = undefined;
			this.connecting = undefined;
			this.reconnectSoon();
		};
		client.on('error', dropped);
		client.on('end', dropped);
		try {
			await client.connect();
			await client.query(`LISTEN ${EVENTS_CHANNEL}`);
		} catch (error) {
			this.connecting = undefined;
			await client.end().catch(() => {});
			throw connectionError(this.target, error);
		}

		if (this.closed) {
			// Closed while connecting: nobody will end this connection later.
			await client.end().catch(() => {});
			throw connectionError(this.target, new Error('the store was closed'));
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
