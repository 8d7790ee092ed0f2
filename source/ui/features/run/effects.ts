// The run's effect: the runs started on the items (through a fan-out, hooks/use-fanout.ts), or why not.

import type {EffectTable} from '../feature.js';

export const RUN_EFFECTS = {
	startRun(effect, {on, later}) {
		later(async () => {
			const started = await on.startRun(effect.instruction, effect.itemIds);
			if (!started.ok) return {type: 'runRefused', text: started.text};
			return {type: 'runStarted', count: effect.itemIds.length, ...(started.batches > 1 ? {batches: started.batches} : {})};
		});
	},
} satisfies EffectTable<'startRun'>;
