// A store caught mid-edit: an `if` in `get` is not closed yet, so the parser ends `get` at the
// class's brace and reads the methods after it as statements.
import { EventEmitter } from 'events';

export class SessionStore extends EventEmitter {
  constructor(options = {}) {
    super();
    this.sessions = new Map();
    this.ttl = options.ttl || 3600;
  }

  get(id) {
    const session = this.sessions.get(id);
    if (session && session.expires < Date.now()) {
      this.sessions.delete(id);
      return undefined;
    return session;
  }

  set(id, session) {
    session.expires = Date.now() + this.ttl * 1000;
    this.sessions.set(id, session);
    this.emit('set', id);
  }

  destroy(id) {
    this.sessions.delete(id);
    this.emit('destroy', id);
  }
}

export function createStore(options) {
  return new SessionStore(options);
}
