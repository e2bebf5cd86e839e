import type { Deps } from '../deps.ts';
import type { Access, PortsFor } from './access.ts';

/** The deps a function declaring `A` receives: using a port its access row does not bind fails to compile. */
export type DepsFor<A extends Access> = Pick<Deps, PortsFor<A> & keyof Deps>;
