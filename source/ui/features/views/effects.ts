// The views' and the `:` line's effects: each view's matches counted off the key path, a line parsed
// where the clock is, `:view save` written to the config file, a jump's item found, `:channel`
// (another channel's screen, or a schema change).

import {saveView} from '../../../config/config.js';
import {parseCommand} from '../../model/command-line.js';
import type {EffectTable} from '../feature.js';

export const VIEWS_EFFECTS = {
	countViews(effect, {state, on, later}) {
		later(async () => {
			const counts: Array<number | null> = [];
			for (const view of effect.views) {
				// One count at a time, a turn of the event loop before each: keys pressed meanwhile go first.
				await new Promise(resolve => setImmediate(resolve));  
				counts.push(await on.store.countMatches(state.channelId, view.query).catch(() => null));  
			}

			return {type: 'viewCounts', views: effect.views, counts};
		});
	},
	parseCommand(effect, {state, dispatch}) {
		dispatch({type: 'commandParsed', result: parseCommand(effect.line, {fields: state.fields, views: state.views.map(view => view.name), now: new Date()})});
	},
	saveView(effect, {state, on, later}) {
		// A view belongs to the channel it was saved on (channels.ID.views in the file).
		later(async () => {
			const saved = await saveView(effect.view.name, effect.view.query, on.configFile, state.channelId);
			return saved.ok ? {type: 'viewSaved', view: effect.view, ok: true, message: saved.path} : {type: 'viewSaved', view: effect.view, ok: false, message: saved.message};
		});
	},
	findItem(effect, {state, on, later}) {
		later(async () => {
			try {
				const matches = await on.store.findItemsNamed(state.channelId, effect.name);
				return {type: 'jumpFound', name: effect.name, ids: [...new Set(matches.map(match => match.item_id))]};
			} catch (error) {
				return {type: 'jumpFound', name: effect.name, ids: [], message: (error as Error).message};
			}
		});
	},
	switchChannel(effect, {state, on, later}) {
		later(async () => {
			const channels = await on.store.listChannelNames();
			const wanted = effect.name.toLowerCase();
			const found = channels.find(channel => channel.id === effect.name) ?? channels.find(channel => channel.id.toLowerCase() === wanted || channel.name.toLowerCase() === wanted);
			if (!found) return {type: 'say', text: `No channel is named ${effect.name}; channels: ${channels.map(channel => channel.id).join(', ')}.`, tone: 'error'};
			if (found.id === state.channelId) return {type: 'say', text: `Already on the channel ${found.name}.`, tone: 'info'};
			if (!on.switchChannel) return {type: 'say', text: 'This screen cannot switch channel.', tone: 'error'};
			on.switchChannel(found.id);
			return undefined;
		});
	},
	changeChannel(effect, {state, on, later}) {
		later(async () => {
			try {
				const result = await on.store.changeChannel(state.channelId, effect.change, {kind: 'human'});
				return {type: 'channelChanged', ok: true, message: `Schema changed: ${effect.change.key}${result.migrated > 0 ? ` (${result.migrated} items moved)` : ''}.`};
			} catch (error) {
				return {type: 'channelChanged', ok: false, message: (error as Error).message};
			}
		});
	},
} satisfies EffectTable<'countViews' | 'parseCommand' | 'saveView' | 'findItem' | 'switchChannel' | 'changeChannel'>;
