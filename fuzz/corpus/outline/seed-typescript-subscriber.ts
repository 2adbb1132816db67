import { Subscription } from './Subscription';

// A subscriber caught mid-edit: a `:` of `create`'s first parameter was deleted, and recovery
// takes the fields after the method into one error with it.
export class Subscriber<T> extends Subscription {
  static create<T>(next? (x?: T) => void, error?: (e?: any) => void): Subscriber<T> {
    return new Subscriber(next, error);
  }

  /** Whether the subscriber has already been stopped. */
  protected isStopped: boolean = false;
  protected destination: Subscriber<any> | null;

  constructor(destination?: Subscriber<any>) {
    super();
    this.destination = destination ?? null;
  }

  next(value?: T): void {
    if (!this.isStopped) {
      this.destination?.next(value);
    }
  }
}
