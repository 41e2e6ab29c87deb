// The WebSocket to the server: hello with the saved session token, requests
// with ids answered by ack/reject, and reconnection by itself with backoff —
// on reconnect it says hello again and re-joins the table from the last
// version it saw, so nothing is missed.

import type { ServerMsg } from "./protocol";

type Listener = (msg: ServerMsg) => void;

const TOKEN_KEY = "romme.token";

export class Connection {
  private ws: WebSocket | null = null;
  private nextId = 1;
  private waiting = new Map<number, (m: ServerMsg) => void>();
  private listeners = new Set<Listener>();
  private closed = false;
  private backoff = 250;
  private queue: string[] = [];
  private ready = false;
  /** Called after every (re)connection once hello was answered. */
  onReady: (() => void) | null = null;
  /** Told when the connection comes up (after hello) or goes down. */
  onStatus: ((up: boolean) => void) | null = null;
  /** The nickname for a first visit. */
  guestName: string | null = null;

  constructor(private url: string) {}

  get token(): string | null {
    return localStorage.getItem(TOKEN_KEY);
  }

  connect(): void {
    this.closed = false;
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.onopen = () => {
      this.backoff = 250;
      const token = this.token;
      const hello = token ? { type: "hello", token } : { type: "hello", guest: this.guestName ?? "Gast" };
      ws.send(JSON.stringify(hello));
    };
    ws.onmessage = (e) => {
      let msg: ServerMsg;
      try {
        msg = JSON.parse(String(e.data));
      } catch {
        return;
      }
      if (msg.type === "welcome") {
        localStorage.setItem(TOKEN_KEY, msg.token);
        this.ready = true;
        for (const q of this.queue.splice(0)) ws.send(q);
        this.onStatus?.(true);
        this.onReady?.();
      }
      if (msg.type === "reject" && msg.code === "unauthenticated" && msg.id === null) {
        // An old token: start over as a guest.
        localStorage.removeItem(TOKEN_KEY);
        ws.close();
      }
      if ((msg.type === "ack" || msg.type === "reject") && msg.id !== null) {
        const w = this.waiting.get(msg.id);
        if (w) {
          this.waiting.delete(msg.id);
          w(msg);
        }
      }
      for (const l of this.listeners) l(msg);
    };
    ws.onclose = () => {
      this.ready = false;
      this.onStatus?.(false);
      this.ws = null;
      if (this.closed) return;
      setTimeout(() => this.connect(), this.backoff);
      this.backoff = Math.min(this.backoff * 2, 5000);
    };
  }

  close(): void {
    this.closed = true;
    this.ws?.close();
  }

  /** Go on with another session (after registering or logging in): the
   *  connection closes and comes back with hello for `token`. */
  switchTo(token: string): void {
    localStorage.setItem(TOKEN_KEY, token);
    this.ws?.close();
  }

  /** Forget the session (logging out). */
  forget(): void {
    localStorage.removeItem(TOKEN_KEY);
  }

  subscribe(l: Listener): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  /** Send a request; resolves with its ack or reject. */
  request(body: Record<string, unknown>): Promise<ServerMsg> {
    const id = this.nextId++;
    const text = JSON.stringify({ ...body, id });
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      if (this.ready && this.ws?.readyState === WebSocket.OPEN) this.ws.send(text);
      else this.queue.push(text);
    });
  }
}

export function wsUrl(): string {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  return `${proto}//${location.host}/ws`;
}
