import type {Dispatch, SetStateAction} from 'react';
import type {Field, Store} from '../../../store/index.js';
import type {EditApi} from '../hooks/use-edit.js';
import type {FollowUpsApi} from '../hooks/use-followups.js';
import type {ListQuery, PageApi} from '../hooks/use-page.js';
import type {QueueApi} from '../hooks/use-queue-actions.js';
import type {RunApi} from '../hooks/use-run.js';
import type {RunSummary} from '../history.js';
import type {Overlay, Pane, Tone} from '../state.js';

/** What the key handlers read and do: the screen's state and actions, passed explicitly. */
export type KeyContext = {
	store: Store;
	fields: Field[];
	overlay: Overlay;
	setOverlay: (overlay: Overlay) => void;
	say: (text: string, tone?: Tone) => void;
	page: PageApi;
	/** Rows the list shows at once (for paging). */
	pageRows: number;
	pane: Pane;
	setPane: (pane: Pane) => void;
	marks: ReadonlySet<string>;
	setMarks: Dispatch<SetStateAction<ReadonlySet<string>>>;
	setPaneScroll: Dispatch<SetStateAction<number>>;
	run: RunApi;
	followUps: FollowUpsApi;
	history: RunSummary[];
	relist: (query: ListQuery, note?: string) => void;
	quit: () => void;
	startRun: (instruction: string, itemIds: string[]) => void;
	showHistory: () => void;
	edit: EditApi;
	queue: QueueApi;
};

export const QUIT_QUESTION = 'A Codex run is active. Cancel it and quit? y/n';
