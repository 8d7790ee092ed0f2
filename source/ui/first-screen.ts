// What the TUI opens on, read before anything is drawn (docs/architecture.md#start-up): the channel
// (or the chooser, or the empty screen) and the first page of its listing, so the first frame Ink
// draws already has the rows: no "Loading…" frame, no screen without rows, two renders fewer.

import type {AsyncStore} from '../../store/api.js';
import type {Channel, ChannelSummary} from '../../store/index.js';
import {configProblems as problemsOfConfig, knownConfigProblems, settingsForChannel, type LoadedConfig} from '../config/config.js';
import {readListing} from './features/list/effects.js';
import {problemsMessage} from './features/problems/slice.js';
import {initialScreen, reduce} from './reducer.js';
import type {ScreenEvent, Transition} from './state.js';

/** What opens: the chooser (or the empty screen, with no channels), a channel's screen, or the notice that it is missing. */
export type Opening =
	| {kind: 'channels'; channels: ChannelSummary[]}
	/** `start`: the screen's first state and effects, its first listing answered, when they were made before the screen mounted. */
	/** `otherIds`: the database's other channels, which the config's problems are checked against too once the first rows are drawn (readOtherChannels). */
	| {kind: 'screen'; channel: Channel; summary: ChannelSummary; otherIds: string[]; start?: Transition}
	| {kind: 'missing'; channelId: string};

/** What opens: the channel asked for (or the only one), else the chooser, else the empty screen. */
export async function openingOf(store: AsyncStore, channelId: string | undefined): Promise<Opening> {
	const names = await store.listChannelNames();
	let id = channelId;
	if (id === undefined) {
		// Item counts are shown only in the chooser, so they are counted only when it opens.
		if (names.length !== 1) return {kind: 'channels', channels: names.length === 0 ? [] : await store.listChannels()};
		id = names[0]!.id;
	}

	if (!names.some(channel => channel.id === id)) return {kind: 'missing', channelId: id};
	// Only this channel before the first frame: the others' fields matter to `:problems` alone.
	const [channel, summary] = await Promise.all([store.getChannel(id), store.channelSummary(id)]);
	return {kind: 'screen', channel, summary, otherIds: names.filter(name => name.id !== id).map(name => name.id)};
}

/** The channels `ids` as they are now; one deleted meanwhile is one the config need not be checked against. */
export async function readOtherChannels(store: AsyncStore, ids: readonly string[]): Promise<Channel[]> {
	const found = await Promise.all(ids.map(async id => store.getChannel(id).catch(() => undefined)));
	return found.filter((other): other is Channel => other !== undefined);
}

/**
 * `others`: the database's other channels, the config's problems being those `sift doctor` finds
 * over all of them; undefined when they are not read yet (then the problems only they can tell
 * follow in a `configProblemsChecked` event).
 */
export type OpeningScreen = {channel: Channel; summary: ChannelSummary; others?: readonly Channel[]; config: LoadedConfig; size: {columns: number; rows: number}; batch: number};

/** The screen's first state and the effects it starts with: the config's views and hotkeys for this channel, and its problems. */
export function openingScreen({channel, summary, others, config, size, batch}: OpeningScreen): Transition {
	const settings = settingsForChannel(config, {id: channel.id, fields: channel.fields});
	// Each problem is one line of `:problems`; the footer only says how many there are.
	const configProblems = others ? problemsOfConfig(config, [channel, ...others]) : knownConfigProblems(config, [channel]);
	return initialScreen({channelId: channel.id, fields: channel.fields, size, total: summary.item_count, followUpCount: 0, runBatch: batch, views: settings.views, hotkeys: settings.hotkeys, instruction: config.config.instruction, message: problemsMessage(configProblems), defaultView: settings.defaultView, configProblems, propose: config.config.agent_mode === 'propose', advanceAfterEdit: config.config.advance_after_edit});
}

/**
 * The opening with its screen's start made once, its first listing read and answered (or its
 * failure, said on the screen as any failed listing is): the screen mounts with that start.
 */
export async function withFirstListing(store: AsyncStore, opening: Opening, screen: (channel: Channel, summary: ChannelSummary) => Transition): Promise<Opening> {
	if (opening.kind !== 'screen') return opening;
	const start = screen(opening.channel, opening.summary);
	const list = start.effects.find(effect => effect.kind === 'list');
	return {...opening, start: list ? startWithListing(start, await readListing(list, start.state, store)) : start};
}

/**
 * The screen's start with its first listing already answered: the answer is reduced into the first
 * state in place of the `list` effect, when it answers that very listing (same generation and query).
 */
export function startWithListing(start: Transition, listed: ScreenEvent | undefined): Transition {
	const list = start.effects.find(effect => effect.kind === 'list');
	if (!listed || !list || !('generation' in listed) || listed.generation !== list.generation) return start;
	if (listed.type === 'listed' && JSON.stringify(listed.query) !== JSON.stringify(list.query)) return start;
	const answered = reduce(start.state, listed);
	return {state: answered.state, effects: [...start.effects.filter(effect => effect !== list), ...answered.effects]};
}
