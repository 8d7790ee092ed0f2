// What a feature (one folder under source/ui/features/) gives the registry (ui/registry.ts): its
// slice of the state machine, its key bindings (lazygit-style: keys, event, description, why it is
// disabled), the handlers of its effects and its view; and the few helpers every slice uses. A
// slice is pure like the root: (state, event) -> {state, effects}, effects as data.

import {LIST_KEYS, type ListAction} from '../../config/key-table.js';
import type {ReactNode} from 'react';
import type {AsyncStore} from '../../../store/api.js';
import type {FanoutRun} from '../../codex/fanout.js';
import type {Layout} from '../layout.js';
import type {RunView} from '../model/runs.js';
import type {Effect, Message, Overlay, ScreenEvent, ScreenState, Tone, Transition} from '../state.js';

export type {ListAction} from '../../config/key-table.js';

/** The scopes written here, from before features declared their own (`ScopeVariants`). */
type CoreScope = 'list' | 'picker' | 'text' | 'queue' | 'history' | 'help' | 'confirm' | 'board'
	/** A field's value picker opened by a hotkey: digits pick, typing jumps. */
	| 'choice'
	/** The record full screen (Z): its keys page and scroll it. */
	| 'record'
	/** The review queue (P): accept, decline, a field alone, all. */
	| 'review';

/**
 * Scopes by who declares them: these, and a feature's own, declared in its slice by declaration
 * merging (`declare module '../feature.js' {interface ScopeVariants {name: 'scope'}}`), as it
 * declares its overlay, events and effects (state.ts's `OverlayVariants`).
 */
export interface ScopeVariants {
	core: CoreScope;
}

/** Where a key is read: the list, or one of the overlays on top of it (its feature names it and titles it in help). */
export type Scope = ScopeVariants[keyof ScopeVariants];

/**
 * One key binding, as lazygit writes a controller's: its keys, the event it sends (made from the
 * key pressed when it needs it: a digit, the time), how help and the footer say it, and why it
 * does nothing in a state (said in the footer, instead of nothing at all).
 */
export type Binding<S extends Scope = Scope, A extends string = string> = {
	scope: S;
	/** The binding's name in its scope (help's line key). */
	action: A;
	/** Key names as keyName() spells them: 'j', 'down', 'pagedown', 'enter', 'escape', 'space', 'ctrl+c'. */
	keys: readonly string[];
	/** How the keys are written on screen. */
	label: string;
	description: string;
	/** Shown in the footer of this scope. */
	hint?: string;
	event: ScreenEvent | ((input: string, at?: number) => ScreenEvent);
	/** Why the key does nothing now (the footer says it), or null when it acts. */
	disabled?: (state: ScreenState) => string | null;
};

/** A binding of one of the list's keys (config/key-table.ts), claimed by the feature whose event it sends. */
export function listBinding<A extends ListAction>(action: A, event: Binding['event'], disabled?: Binding['disabled']): Binding<'list', A> {
	return {scope: 'list', action, ...LIST_KEYS[action], event, ...(disabled ? {disabled} : {})};
}

/** A binding of a feature's own scope. */
export const bind = <S extends Scope>(scope: S, action: string, keys: readonly string[], label: string, description: string, event: Binding['event'], more: {hint?: string; disabled?: Binding['disabled']} = {}): Binding<S> => ({scope, action, keys, label, description, event, ...more});

export type OverlayKind = Overlay['kind'];
export type OverlayOf<K extends OverlayKind> = Extract<Overlay, {kind: K}>;
export type EventType = ScreenEvent['type'];
export type EventOf<T extends EventType> = Extract<ScreenEvent, {type: T}>;
export type Handler<T extends EventType> = (state: ScreenState, event: EventOf<T>) => Transition;

/** A typed case table over some events: each slice has one, the root merges them. */
export type EventTable<T extends EventType> = {[K in T]: Handler<K>};

/** The keys' events that mean something only to the open overlay: the root hands them to its slice. */
export const OVERLAY_EVENTS = ['cursor', 'choose', 'toggle', 'cancel', 'submit', 'type', 'pickType', 'erase', 'page', 'answer', 'queueType', 'queueDismiss', 'queueStep'] as const;
export type OverlayEventType = (typeof OVERLAY_EVENTS)[number];

/** The open overlay's handler of one of its scope's events. */
export type OverlayHandler<K extends OverlayKind, T extends OverlayEventType> = (state: ScreenState, overlay: OverlayOf<K>, event: EventOf<T>) => Transition;

/**
 * One overlay: where its keys go (its scope, from its state), what those keys do while it is open
 * (an event it has no handler for does nothing), and the events it owns wherever they come from
 * (the key that opens it, the reads that fill it).
 */
export type OverlaySlice<K extends OverlayKind, E extends EventType = never> = {
	scope: (overlay: OverlayOf<K>) => Scope;
	keys: {[T in OverlayEventType]?: OverlayHandler<K, T>};
	events: EventTable<E>;
	/** The scopes whose keys this feature declares, with their titles in help, in help's order. */
	scopes: {[S in Scope]?: string};
	/** Its keys: its own scopes' and the list keys it claims. */
	bindings: readonly Binding[];
	/** The handlers of the effects its events ask for (EffectTable). */
	effects: object;
	/** How the overlay is drawn while open (none: the list alone). */
	view?: FeatureView<K>;
	/** The values of the screen fields the feature adds to `ScreenState` (declared in its slice), at start. */
	initial?: object;
};

export type Dispatch = (event: ScreenEvent) => void;

/** What effects need beyond the store: the runs, quitting, and reading events now (the screen gives them, screen.tsx). */
export type EffectHandlers = {
	store: AsyncStore;
	stateDir: string;
	/** Starts the runs on the items, through a fan-out in batches (one batch: one run); why not when none started. */
	startRun: (instruction: string, itemIds: string[]) => Promise<{ok: true; batches: number} | {ok: false; text: string}>;
	/** Cancels the one run, or the board's run at `position`. */
	cancelRun: (position: number | null) => void;
	/** The runs board: cancel the run at a position, cancel all, watch mode on/off. */
	board?: {cancel: (position: number) => void; cancelAll: () => void; toggleWatch: () => void};
	quit: () => void;
	pollEvents: () => void;
	/** The environment $EDITOR is read from (process.env unless given). */
	env?: NodeJS.ProcessEnv;
	/** Where `:view save` writes (the config file). */
	configFile: string;
	/** `:channel NAME`: opens the screen of the channel with this id (absent: switching is not offered). */
	switchChannel?: (channelId: string) => void;
};

/** What an effect's handler is given: the state the effect came with, the handlers, and where results go. */
export type EffectContext = {
	state: ScreenState;
	on: EffectHandlers;
	dispatch: Dispatch;
	/** Runs async work and dispatches the event it ends with; a throw becomes `effectFailed`. */
	later: (work: () => Promise<ScreenEvent | undefined>) => void;
};

export type EffectKind = Effect['kind'];
export type EffectOf<K extends EffectKind> = Extract<Effect, {kind: K}>;

/** A feature's effects, one handler per kind: it calls the store (never awaited by the key that asked) or the runs, and sends the result back as an event. */
export type EffectTable<K extends EffectKind> = {[X in K]: (effect: EffectOf<X>, context: EffectContext) => void};

/** The most follow-ups or proposals a queue reads at once. */
export const QUEUE_LIMIT = 500;

/** What a feature's view is drawn from: the state, the layout, and what the hooks hold (the runs, the clock). */
export type ViewContext = {
	state: ScreenState;
	layout: Layout;
	/** The list's own pane (the record, or the run), as the list shows it. */
	pane: ReactNode | null;
	/** The runs the fan-out and watch hooks hold: the board's runs and live views, the latest run's view, watch mode's status line. */
	runs: {runs: readonly FanoutRun[]; views: Readonly<Record<string, RunView>>; latest: RunView | null; watch: string | null};
	now: number;
	frame: number;
};

/**
 * Where an open overlay is drawn and how: the whole body (help, a queue), the pane beside or under
 * the list (a picker, an editor), or the prompt line of the footer (a text line, a question), with
 * a note said after a prompt.
 */
export type FeatureView<K extends OverlayKind> = {
	place: 'body' | 'pane' | 'prompt';
	render: (overlay: OverlayOf<K>, context: ViewContext) => ReactNode;
	note?: (overlay: OverlayOf<K>) => Message | null;
};

/** A slice as the registry holds it, whatever events it owns. */
export type AnySlice<K extends OverlayKind> = Pick<OverlaySlice<K>, 'scope' | 'keys' | 'scopes' | 'bindings' | 'effects' | 'view' | 'initial'> & {events: object};

export const none = (state: ScreenState): Transition => ({state, effects: []});

export const chain = (first: Transition, next: Transition): Transition => ({state: next.state, effects: [...first.effects, ...next.effects]});

/** The footer's message: raw text, escaped where it is drawn (components/footer.tsx). */
export const say = (state: ScreenState, text: string, tone: Tone = 'info'): ScreenState => ({...state, message: {text, tone}});

/** A cursor moved one step down or up a list of `length`, wrapping around. */
export const wrap = (cursor: number, delta: number, length: number) => (length === 0 ? 0 : (cursor + delta + length) % length);
