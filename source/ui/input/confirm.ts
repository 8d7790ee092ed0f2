import type {Action} from '../keys.js';
import {NONE} from '../state.js';
import type {KeyContext} from './context.js';

/** Keys answering a y/n question: dismissing a follow-up, quitting, or cancelling the run. */
export function onConfirmKey({overlay, setOverlay, queue, quit, run, say}: KeyContext, action: Action | undefined): void {
	if (overlay.kind === 'queue' && overlay.confirmDismiss) {
		if (action === 'yes' && queue.queueEntry) queue.dismissQueueEntry();
		else if (action === 'no') setOverlay({...overlay, confirmDismiss: false});
		return;
	}

	if (overlay.kind !== 'confirm') return;
	if (action === 'yes') {
		setOverlay(NONE);
		if (overlay.action === 'quit') quit();
		else if (run.cancel()) say('Cancelling the run…', 'warn');
	} else if (action === 'no') {
		setOverlay(NONE);
	}
}
