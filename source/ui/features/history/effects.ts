// The run history's effects: the runs and one run's steps read, a run's diff and its revert (the
// store's review API, in source/text/review.ts's words).

import {sortRevert} from '../../../../store/review-plan.js';
import {diffText, revertPreviewText, revertText} from '../../../text/review.js';
import type {EffectTable} from '../feature.js';

export const HISTORY_EFFECTS = {
	loadHistory(_effect, {on, later}) {
		later(async () => {
			const {loadRunHistory} = await import('../../history.js');
			return {type: 'historyLoaded', runs: await loadRunHistory(on.stateDir, on.store)};
		});
	},
	loadSteps(effect, {later}) {
		later(async () => {
			const {runSteps} = await import('../../history.js');
			return {type: 'stepsLoaded', run: effect.run, steps: runSteps(effect.run)};
		});
	},
	runDiff(effect, {state, on, later}) {
		later(async () => {
			const [diff, channel] = await Promise.all([on.store.runs.diff(effect.runId), on.store.getChannel(state.channelId)]);
			const text = effect.preview ? revertPreviewText(effect.runId, sortRevert(diff), channel).replace(/\n[^\n]*$/, '') : diffText(diff, channel);
			return {type: 'runDiffLoaded', runId: effect.runId, lines: text.split('\n'), revert: effect.preview};
		});
	},
	runRevert(effect, {state, on, later}) {
		later(async () => {
			const [result, channel] = await Promise.all([on.store.runs.revert(effect.runId), on.store.getChannel(state.channelId)]);
			return {type: 'runReverted', runId: effect.runId, lines: revertText(result, channel).split('\n'), ok: result.conflicts.length === 0 && result.refused.length === 0};
		});
	},
} satisfies EffectTable<'loadHistory' | 'loadSteps' | 'runDiff' | 'runRevert'>;
