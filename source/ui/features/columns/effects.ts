// The column chooser's effects: each view's chosen columns are kept in the state directory's
// columns.json, by channel and view name (the views themselves live in the config file, which sift
// writes only on `:view save`). Read once the first rows are drawn, written whole on each choice
// (a temporary file renamed over it, so a reader never sees half of one).

import {mkdir, readFile, rename, writeFile} from 'node:fs/promises';
import path from 'node:path';
import type {EffectTable} from '../feature.js';

/** One channel's kept choices: view name → the field keys it shows, in order. */
export type ColumnChoices = Record<string, string[]>;

type ColumnsFile = {channels: Record<string, ColumnChoices>};

export const columnsFile = (stateDir: string) => path.join(stateDir, 'columns.json');

const isKeyList = (value: unknown): value is string[] => Array.isArray(value) && value.every(key => typeof key === 'string');

/** The file as written, or empty when it is missing or not one (a hand-edited file that does not parse is read as none). */
async function readColumnsFile(stateDir: string): Promise<ColumnsFile> {
	try {
		const parsed = JSON.parse(await readFile(columnsFile(stateDir), 'utf8')) as unknown;
		const channels = (parsed as {channels?: unknown})?.channels;
		return typeof channels === 'object' && channels !== null && !Array.isArray(channels) ? {channels: channels as Record<string, ColumnChoices>} : {channels: {}};
	} catch {
		return {channels: {}};
	}
}

/** The kept choices of one channel, each a list of keys (anything else in the file is left out). */
export async function readColumnChoices(stateDir: string, channelId: string): Promise<ColumnChoices> {
	const {channels} = await readColumnsFile(stateDir);
	const own = Object.hasOwn(channels, channelId) ? channels[channelId] : undefined;
	const choices: ColumnChoices = {};
	for (const [view, columns] of Object.entries(own ?? {})) if (isKeyList(columns)) choices[view] = columns;
	return choices;
}

/** Keeps `columns` for the view `view` of `channelId`, the other choices as they are. */
export async function writeColumnChoice(stateDir: string, channelId: string, view: string, columns: string[]): Promise<void> {
	const file = await readColumnsFile(stateDir);
	const own = Object.hasOwn(file.channels, channelId) ? file.channels[channelId]! : {};
	const next: ColumnsFile = {channels: {...file.channels, [channelId]: {...own, [view]: columns}}};
	await mkdir(stateDir, {recursive: true});
	const temporary = `${columnsFile(stateDir)}.${process.pid}.tmp`;
	await writeFile(temporary, JSON.stringify(next, null, 2) + '\n', {mode: 0o600});
	await rename(temporary, columnsFile(stateDir));
}

export const COLUMNS_EFFECTS = {
	saveColumnChoice(effect, {state, on, later}) {
		later(async () => {
			try {
				await writeColumnChoice(on.stateDir, state.channelId, effect.view, effect.columns);
				return {type: 'columnsSaved', view: effect.view, ok: true};
			} catch (error) {
				return {type: 'columnsSaved', view: effect.view, ok: false, message: (error as Error).message};
			}
		});
	},
} satisfies EffectTable<'saveColumnChoice'>;
