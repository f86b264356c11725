// One count of open connections for the whole HTTP server, kept where a connection arrives.
// The server listens on several accept queues (accept-queues.ts): its own socket, and extra
// sockets that hand their connections over with `server.emit('connection')`. Node's
// `server.maxConnections` is checked only on the server's own socket, so it held for one
// connection in sixteen. Every connection, whichever socket accepted it, reaches the HTTP
// server as a 'connection' event; the gate listens first, counts it, and closes it unanswered
// when MAX_CONNECTIONS are open, or MAX_CONNECTIONS_PER_ADDRESS from its client address.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { Counter, Gauge, type Registry } from 'prom-client';
import { addressKey } from './client-address.js';

export interface ConnectionGateOptions {
  /** Open connections at once, all addresses together. */
  maxConnections: number;
  /** Open connections from one client address (an IPv6 client by its /64). */
  maxPerAddress: number;
  /** Peers not held to the per-address cap: proxies, whose one address carries many clients. */
  sharedAddress?: (address: string | undefined) => boolean;
  registry?: Registry;
}

export class ConnectionGate {
  readonly #max: number;
  readonly #maxPerAddress: number;
  readonly #shared: (address: string | undefined) => boolean;
  readonly #byAddress = new Map<string, number>();
  #open = 0;
  readonly #refused: Counter<'reason'> | undefined;

  constructor(options: ConnectionGateOptions) {
    this.#max = options.maxConnections;
    this.#maxPerAddress = options.maxPerAddress;
    this.#shared = options.sharedAddress ?? (() => false);
    if (options.registry) {
      const registers = [options.registry];
      // The app of the latest buildApp on these deps is the one counted (tests build more than one).
      for (const name of ['http_connections_open', 'http_connections_refused_total'])
        options.registry.removeSingleMetric(name);
      const gate = this;
      new Gauge({
        name: 'http_connections_open',
        help: 'Connections open now, whichever accept queue took them',
        registers,
        collect() {
          this.set(gate.open);
        },
      });
      this.#refused = new Counter({
        name: 'http_connections_refused_total',
        help: 'Connections closed on arrival, by the cap they met: total (MAX_CONNECTIONS) or address (MAX_CONNECTIONS_PER_ADDRESS)',
        labelNames: ['reason'],
        registers,
      });
    }
  }

  /** Connections open now. */
  get open(): number {
    return this.#open;
  }

  /** Connections open now from this client address's key. */
  openFrom(address: string): number {
    return this.#byAddress.get(addressKey(address)) ?? 0;
  }

  /**
   * Counts a connection that just arrived, or closes it unanswered (false) when a cap is
   * reached. A counted connection is counted until it closes.
   */
  admit(socket: Socket): boolean {
    const address = socket.remoteAddress;
    const key = this.#shared(address) ? undefined : addressKey(address);
    const fromAddress = key === undefined ? 0 : (this.#byAddress.get(key) ?? 0);
    if (this.#open >= this.#max || fromAddress >= this.#maxPerAddress) {
      this.#refused?.inc({ reason: this.#open >= this.#max ? 'total' : 'address' });
      socket.destroy();
      return false;
    }
    this.#open++;
    if (key !== undefined) this.#byAddress.set(key, fromAddress + 1);
    socket.once('close', () => {
      this.#open--;
      if (key === undefined) return;
      const left = (this.#byAddress.get(key) ?? 1) - 1;
      if (left <= 0) this.#byAddress.delete(key);
      else this.#byAddress.set(key, left);
    });
    return true;
  }
}

/**
 * Puts the gate in front of the HTTP server: its listener runs before the server's own, so a
 * connection over a cap is closed before the server reads a byte of it. (The server's listener
 * still runs on the closed socket and finds nothing to read; it frees its parser on close.)
 */
export function installConnectionGate(server: Server, options: ConnectionGateOptions): ConnectionGate {
  const gate = new ConnectionGate(options);
  server.prependListener('connection', (socket: Socket) => void gate.admit(socket));
  return gate;
}
