import type {FanoutEvent, FanoutRun} from '../../codex/fanout.js';
import type {RunResult} from '../../codex/runner.js';
import type {Step} from '../../codex/steps.js';
import type {RunUpdate, Usage} from '../../codex/tracker.js';

// The runs as the screen shows them (pure): one run's live view folded from its updates, and the
// runs board folded from fan-out events. The hooks (hooks/use-fanout.ts) feed them.

/** What the run pane shows. */
export type RunView = {
	runId: string;
	instruction: string;
	itemIds: string[];
	startedAt: number;
	finishedAt: number | null;
	steps: Step[];
	text: string;
	notices: string[];
	warnings: string[];
	usage: Usage | null;
	/** "no progress from Codex for N s (last: …)" while Codex is silent; cleared by its next update. */
	stall?: string | null;
	cancelling: boolean;
	result: RunResult | null;
	/** Set when the runner itself threw (e.g. the run log could not be written). */
	crash: string | null;
};

export type RunAction =
	| {type: 'start'; runId: string; instruction: string; itemIds: string[]; at: number}
	| {type: 'update'; runId: string; update: RunUpdate}
	| {type: 'cancelling'; runId: string}
	| {type: 'done'; runId: string; result: RunResult; at: number}
	| {type: 'crash'; runId: string; message: string; at: number};

const MAX_NOTES = 20;

export function runReducer(state: RunView | null, action: RunAction): RunView | null {
	if (action.type === 'start') {
		return {runId: action.runId, instruction: action.instruction, itemIds: action.itemIds, startedAt: action.at, finishedAt: null, steps: [], text: '', notices: [], warnings: [], usage: null, stall: null, cancelling: false, result: null, crash: null};
	}

	if (!state || state.runId !== action.runId) {
		return state;
	}

	switch (action.type) {
		case 'update': {
			const {update} = action;
			if (update.type === 'stall') return {...state, stall: update.message};
			state = !state.stall ? state : {...state, stall: null};
			switch (update.type) {
				case 'step': {
					const index = state.steps.findIndex(step => step.id === update.step.id);
					const steps = [...state.steps];
					if (index === -1) steps.push(update.step);
					else steps[index] = update.step;
					return {...state, steps};
				}

				case 'text': {
					return {...state, text: update.text};
				}

				case 'warning': {
					return {...state, warnings: [...state.warnings, update.message].slice(-MAX_NOTES)};
				}

				case 'notice': {
					return {...state, notices: [...state.notices, update.message].slice(-MAX_NOTES)};
				}

				case 'usage': {
					return {...state, usage: update.usage};
				}

				default: {
					return state;
				}
			}
		}

		case 'cancelling': {
			return {...state, cancelling: true};
		}

		case 'done': {
			const {result} = action;
			return {...state, finishedAt: action.at, result, steps: result.steps.length >= state.steps.length ? result.steps : state.steps, text: result.text || state.text, usage: result.usage ?? state.usage};
		}

		case 'crash': {
			return {...state, finishedAt: action.at, crash: action.message};
		}
	}
}

export const isActive = (run: RunView | null) => run !== null && run.finishedAt === null;

/** The runs board: every batch of this session's fan-outs in the order added, and each one's live view. */
export type BoardState = {runs: FanoutRun[]; views: Record<string, RunView>};

export type BoardAction = {type: 'event'; event: FanoutEvent; instruction: string; at: number} | {type: 'cancelling'; runId: string};

export const EMPTY_BOARD: BoardState = {runs: [], views: {}};

/** Folds one fan-out event into the board: the run's row, and its steps through the run pane's own reducer. */
export function boardReducer(state: BoardState, action: BoardAction): BoardState {
	if (action.type === 'cancelling') {
		const view = state.views[action.runId];
		return view && view.finishedAt === null ? {...state, views: {...state.views, [action.runId]: runReducer(view, action)!}} : state;
	}

	const {event, instruction, at} = action;
	const {run} = event;
	const index = state.runs.findIndex(each => each.runId === run.runId);
	const runs = index === -1 ? [...state.runs, run] : state.runs.map((each, position) => (position === index ? run : each));
	let view: RunView | null = state.views[run.runId] ?? null;
	switch (event.type) {
		case 'queued': {
			view = runReducer(null, {type: 'start', runId: run.runId, instruction, itemIds: [...run.itemIds], at});
			break;
		}

		case 'started': {
			view = view ? {...view, startedAt: run.startedAt ?? at} : view;
			break;
		}

		case 'update': {
			view = runReducer(view, {type: 'update', runId: run.runId, update: event.update});
			break;
		}

		case 'finished': {
			view = runReducer(view, {type: 'done', runId: run.runId, result: event.result, at});
			break;
		}

		case 'skipped': {
			view = runReducer(view, {type: 'crash', runId: run.runId, message: 'Cancelled before it started.', at});
			break;
		}

		case 'unstarted': {
			view = runReducer(view, {type: 'crash', runId: run.runId, message: `The run could not start: ${run.error ?? 'unknown error'}`, at});
			break;
		}
	}

	return {runs, views: view ? {...state.views, [run.runId]: view} : state.views};
}

export const isGoing = (run: FanoutRun) => run.state === 'queued' || run.state === 'starting' || run.state === 'running';

/** The board's totals for the header: runs going and done, items, tokens. */
export function boardTotals(runs: readonly FanoutRun[]) {
	let tokens = 0;
	for (const run of runs) tokens += run.usage ? run.usage.input_tokens + run.usage.output_tokens : 0;
	const going = runs.filter(isGoing).length;
	return {running: going, done: runs.length - going, items: runs.reduce((sum, run) => sum + run.itemIds.length, 0), tokens};
}
