import { IllegalTransition } from './errors.js';

/** A move: the states an event may start from and the state it leads to. */
export interface Move<S extends string> {
  readonly from: readonly S[];
  readonly to: S;
}

/** A pure state machine: allowed moves per event, and a transition function that throws on illegal moves. */
export interface Machine<S extends string, E extends string> {
  readonly name: string;
  readonly moves: Readonly<Record<E, Move<S>>>;
  /** The next state, or IllegalTransition when the event is not allowed from `from`. */
  transition(from: S, event: E): S;
  can(from: S, event: E): boolean;
  /** States from which the event is allowed (for compare-and-set updates). */
  sources(event: E): readonly S[];
}

export function defineMachine<S extends string, E extends string>(
  name: string,
  moves: Record<E, Move<S>>,
): Machine<S, E> {
  const frozen = Object.freeze({ ...moves });
  return Object.freeze({
    name,
    moves: frozen,
    can: (from: S, event: E) => frozen[event].from.includes(from),
    sources: (event: E) => frozen[event].from,
    transition(from: S, event: E): S {
      if (!frozen[event].from.includes(from)) throw new IllegalTransition(name, from, event);
      return frozen[event].to;
    },
  });
}
