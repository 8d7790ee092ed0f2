// Making a Redmine adapter for a command: the API key (token.ts), the client (client.ts) against the
// link's server, and the reads `sift sync add redmine` needs to make a channel that fits the project
// (its trackers, statuses, priorities, categories, members, versions and custom fields).

import {systemClock, type WatchClock} from '../../codex/watch-loop.js';
import {RedmineAdapter} from './adapter.js';
import {RedmineClient, RedmineError} from './client.js';
import type {ProjectShape, Raw} from './mapping.js';
import {findRedmineKey, type FoundKey} from './token.js';

export type RedmineConnection = {adapter: RedmineAdapter; client: RedmineClient; key: FoundKey};

export function connectRedmine(options: {url: string; env: NodeJS.ProcessEnv; keyFile?: string; clock?: WatchClock; notice?: (message: string) => void; signal?: AbortSignal}): RedmineConnection {
	const key = findRedmineKey(options.env, options.keyFile);
	const client = new RedmineClient({url: options.url, key: key.key, clock: options.clock ?? systemClock, notice: options.notice, signal: options.signal});
	return {adapter: new RedmineAdapter(client), client, key};
}

/** What the project holds that its channel is made of. Custom fields need an administrator's key; without one they stay local (said). */
export async function projectShape(connection: RedmineConnection, project: string): Promise<ProjectShape & {notes: string[]}> {
	const lookups = await connection.adapter.lookups(project);
	const notes: string[] = [];
	let customFields: ProjectShape['customFields'] = [];
	try {
		const {data} = await connection.client.request<Raw>('GET', '/custom_fields.json');
		customFields = ((data.custom_fields ?? []) as Raw[]).filter(field => field.customized_type === 'issue').map(field => ({
			id: Number(field.id), name: String(field.name), format: String(field.field_format), multiple: field.multiple === true,
			values: Array.isArray(field.possible_values) ? (field.possible_values as Raw[]).map(value => String(value.value)) : [],
		}));
	} catch (error) {
		if (!(error instanceof RedmineError && error.status === 403)) throw error;
		notes.push('custom fields are listed to administrators only: they stay off the link (link with an administrator\'s key to sync them)');
	}

	return {...lookups, customFields, notes};
}
