import { EventEmitter } from 'events';
import type { Transport, TransportOptions } from './transport';

/** What a request resolves to. */
export interface ResponseEnvelope<TData, TError = Error> {
  readonly status: number;
  data?: TData;
  error?: TError;
  headers: Map<string, ReadonlyArray<HeaderValue<string>>>;
  retry(delayMs: number): Promise<ResponseEnvelope<TData, TError>>;
}

/** Options of one request; every one may be left out. */
export interface RequestOptions<TBody = unknown> {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  headers?: Record<string, string>;
  body?: TBody;
  signal?: AbortSignal;
  timeoutMs?: number;
  retries?: number;
  onProgress?: (loaded: number, total: number) => void;
  parse?: (response: Response) => Promise<TBody>;
  cache?: Map<string, Promise<ResponseEnvelope<TBody>>>;
}

export class HttpClient<TContext extends Record<string, unknown>> extends EventEmitter {
  public readonly baseUrl: string;
  public readonly transport: Transport<TransportOptions<TContext>>;
  public timeoutMs = 30_000;
  protected readonly pending: Map<number, Deferred<ResponseEnvelope<unknown>>>;
  private secret = '';

  constructor(baseUrl: string, public context: TContext, private readonly logger?: Logger) {
    super();
    this.baseUrl = baseUrl;
  }

  public async request<TData>(path: string, init?: RequestInit): Promise<ResponseEnvelope<TData>> {
    return this.transport.send(path, init);
  }

  public static create<TContext extends Record<string, unknown>>(baseUrl: string): HttpClient<TContext> {
    return new HttpClient(baseUrl, {} as TContext);
  }

  close(): void {
    this.pending.clear();
  }
}
