// What an overlay's module gives the root reducer (reducer.ts), and the few helpers every slice
// uses. A slice is pure like the root: (state, event) -> {state, effects}, effects as data.

import type {Scope} from '../keys.js';
import type {Overlay, ScreenEvent, ScreenState, Tone, Transition} from '../state.js';

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
};

/** A slice as the registry holds it, whatever events it owns. */
export type AnySlice<K extends OverlayKind> = Pick<OverlaySlice<K>, 'scope' | 'keys'> & {events: object};

export const none = (state: ScreenState): Transition => ({state, effects: []});

export const chain = (first: Transition, next: Transition): Transition => ({state: next.state, effects: [...first.effects, ...next.effects]});

/** The footer's message: raw text, escaped where it is drawn (components/footer.tsx). */
export const say = (state: ScreenState, text: string, tone: Tone = 'info'): ScreenState => ({...state, message: {text, tone}});

/** A cursor moved one step down or up a list of `length`, wrapping around. */
export const wrap = (cursor: number, delta: number, length: number) => (length === 0 ? 0 : (cursor + delta + length) % length);
