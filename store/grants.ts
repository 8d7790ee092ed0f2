// The channels a writer may touch (anything else answers `not_granted`) and its scope: under
// read-only grants every edit is `forbidden`.

import {quote, StoreError} from './errors.js';

/** What a writer may do in its granted channels: read them, or read and edit them (docs/team-mode.md#scopes). */
export type GrantScope = 'read' | 'write';
export const GRANT_SCOPES: readonly GrantScope[] = ['read', 'write'];

/**
 * The channels an agent's server may touch (docs/reference.md#grants), and whether it may edit
 * them. Any other channel, existing or not, gets the same answer, so an agent cannot probe which
 * channels exist.
 */
export class Grants {
	private readonly channels: ReadonlySet<string>;

	constructor(channels: Iterable<string>, readonly scope: GrantScope = 'write') {
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

/** Refuses a write made under read-only grants (`forbidden`), before anything is read or written. */
export function checkWriteScope(grants: Grants | undefined): void {
	if (grants?.scope === 'read') {
		throw new StoreError({error: 'forbidden', message: 'this token is read-only (scope read): it may read its granted channels, not edit them'});
	}
}
