// `sift token create|list|revoke`: bearer tokens for `sift serve`.

import {GRANT_SCOPES, StoreError, type AsyncStore, type GrantScope, type TokenActor, type TokenInfo} from '../../store/index.js';
import {sanitize} from '../text/sanitize.js';
import {output, withStore} from './common.js';
import {UsageError, type Command, type CommandContext} from './context.js';

const UNITS: Record<string, number> = {m: 60_000, h: 3_600_000, d: 86_400_000};
export const DEFAULT_EXPIRY = '30d';

/**
 * `sift token create --grant CHANNEL[,...] [--scope read|write] [--actor agent|human] [--name N] [--expires 30d|never]`,
 * `sift token list`, `sift token revoke NAME` (docs/team-mode.md#tokens).
 */
const token: Command = async context => {
	const [action, ...rest] = context.input;
	switch (action) {
		case 'create':
			if (rest.length > 0) throw new UsageError(`sift token create takes no arguments, got ${JSON.stringify(rest[0])}`);
			return withStore(context, async store => create(context, store));
		case 'list':
			if (rest.length > 0) throw new UsageError(`sift token list takes no arguments, got ${JSON.stringify(rest[0])}`);
			return withStore(context, async store => list(context, store));
		case 'revoke':
			if (rest.length !== 1) throw new UsageError('sift token revoke needs exactly one token NAME');
			return withStore(context, async store => revoke(context, store, rest[0]!));
		default:
			throw new UsageError(`sift token needs create, list or revoke${action === undefined ? '' : `, got ${JSON.stringify(action)}`}`);
	}
};

export default token;

async function create(context: CommandContext, store: AsyncStore): Promise<number> {
	const grants = (context.flags.grant ?? []).flatMap(entry => entry.split(',')).map(entry => entry.trim()).filter(Boolean);
	if (grants.length === 0) throw new UsageError('sift token create needs --grant CHANNEL[,...]: the channels the token may touch');
	const actor = context.flags.actor ?? 'agent';
	if (actor !== 'agent' && actor !== 'human') throw new UsageError(`--actor must be agent or human, got ${JSON.stringify(actor)}`);
	const scope = context.flags.scope ?? 'write';
	if (!(GRANT_SCOPES as readonly string[]).includes(scope)) throw new UsageError(`--scope must be read or write, got ${JSON.stringify(scope)}`);
	const known = new Set((await store.listChannelNames()).map(channel => channel.id));
	const missing = grants.filter(id => !known.has(id));
	if (missing.length > 0) {
		throw new StoreError({error: 'not_found', message: `--grant names ${missing.map(id => JSON.stringify(id)).join(', ')}, not a channel; channels: ${[...known].join(', ') || 'none'}`});
	}

	const now = new Date();
	const expiresAt = expiryOf(context.flags.expires ?? DEFAULT_EXPIRY, now);
	const created = await store.tokens.create({name: context.flags.name, grants, actor: actor as TokenActor, scope: scope as GrantScope, expiresAt, now});
	output(context, {token: created.token, ...created.info}, () =>
		[
			created.token,
			'',
			`Token ${created.info.name} (${created.info.actor}; grants: ${created.info.grants.join(', ')}; scope: ${created.info.scope}; expires: ${created.info.expires_at ?? 'never'}).`,
			'It is shown only this once: sift keeps a hash of it, not the token.',
		].join('\n'),
	);
	return 0;
}

/** `30d`, `12h`, `90m`, or `never`; the time it ends, or undefined for never. */
export function expiryOf(value: string, now: Date): string | undefined {
	if (value === 'never') return undefined;
	const match = /^(\d{1,6})([mhd])$/.exec(value.trim());
	if (!match || Number(match[1]) === 0) throw new UsageError(`--expires must be a duration such as 30d, 12h or 90m, or never; got ${JSON.stringify(value)}`);
	return new Date(now.getTime() + Number(match[1]) * UNITS[match[2]!]!).toISOString();
}

async function list(context: CommandContext, store: AsyncStore): Promise<number> {
	const tokens = await store.tokens.list();
	output(context, tokens, () => (tokens.length === 0 ? 'No tokens. Create one with `sift token create --grant CHANNEL`.' : table(tokens, new Date())));
	return 0;
}

async function revoke(context: CommandContext, store: AsyncStore, name: string): Promise<number> {
	const info = await store.tokens.revoke(name);
	output(context, info, () => `Revoked ${sanitize(info.name)}.`);
	return 0;
}

function table(tokens: TokenInfo[], now: Date): string {
	const header = ['NAME', 'ACTOR', 'GRANTS', 'SCOPE', 'CREATED', 'EXPIRES', 'LAST USED', 'STATUS'];
	const rows = tokens.map(info => [
		info.name,
		info.actor + (info.run_id ? ` (run ${info.run_id})` : ''),
		info.grants.join(','),
		info.scope,
		minute(info.created_at),
		info.expires_at ? minute(info.expires_at) : 'never',
		info.last_used_at ? minute(info.last_used_at) : '-',
		statusOf(info, now),
	].map(cell => sanitize(cell)));
	const widths = header.map((title, column) => Math.max(title.length, ...rows.map(row => row[column]!.length)));
	return [header, ...rows].map(row => row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd()).join('\n');
}

const minute = (iso: string) => iso.slice(0, 16).replace('T', ' ');

function statusOf(info: TokenInfo, now: Date): string {
	if (info.revoked_at) return 'revoked';
	if (info.expires_at && Date.parse(info.expires_at) <= now.getTime()) return 'expired';
	return 'active';
}
