import {queueOptions} from '../components/queue.js';
import {typingFor} from '../hooks/use-queue-actions.js';
import type {Action} from '../keys.js';
import {NONE} from '../state.js';
import type {KeyContext} from './context.js';

/** Keys in the follow-up queue: pick or type a value, dismiss, move between follow-ups. */
export function onQueueKey({overlay, setOverlay, queue, followUps}: KeyContext, action: Action | undefined): void {
	if (overlay.kind !== 'queue') return;
	const {queueEntry, queueField, resolveQueue} = queue;
	const options = queueEntry ? queueOptions(queueEntry, queueField) : [];
	const count = followUps.queue.length;
	switch (action) {
		case 'down': { if (options.length > 0) setOverlay({...overlay, optionCursor: (overlay.optionCursor + 1) % options.length}); break; }
		case 'up': { if (options.length > 0) setOverlay({...overlay, optionCursor: (overlay.optionCursor - 1 + options.length) % options.length}); break; }
		case 'choose': {
			if (!queueEntry) break;
			if (options.length > 0) resolveQueue(options[overlay.optionCursor]!.value);
			else setOverlay({...overlay, typing: typingFor(queueEntry), problem: null});
			break;
		}

		case 'type': { if (queueEntry) setOverlay({...overlay, typing: typingFor(queueEntry), problem: null}); break; }
		case 'dismiss': { if (queueEntry) setOverlay({...overlay, confirmDismiss: true}); break; }
		case 'skip': { if (count > 0) setOverlay({...overlay, index: (overlay.index + 1) % count, optionCursor: 0, problem: null}); break; }
		case 'back': { if (count > 0) setOverlay({...overlay, index: (overlay.index - 1 + count) % count, optionCursor: 0, problem: null}); break; }
		case 'cancel': { setOverlay(NONE); followUps.refreshCount(); break; }
		default: { break; }
	}
}
