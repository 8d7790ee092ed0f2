import {quote, StoreError} from './errors.js';

/**
 * The channels an agent's server may touch (docs/reference.md#grants). Anything else, existing or not, gets the
 * same answer, so an agent cannot probe which channels exist.
 */
export class Grants {
	private readonly channels: ReadonlySet<string>;

	constructor(channels: Iterable<string>) {
		this.channels = new Set(channels);
	}

	get ids(): string[] {
		return [...this.channels];
	}

	/** True when the channel is granted; for questions that must not reveal whether others exist. */
	has(channelId: string): boolean {
		return this.channels.has(channelId);
	}

	check(channelId: unknown): string {
		if (typeof channelId !== 'string' || !this.channels.has(channelId)) {
			throw new StoreError({error: 'not_granted', message: `channel ${quote(channelId)} is not granted to this server; granted: ${this.ids.join(', ')}`});
		}

		return channelId;
	}
}
