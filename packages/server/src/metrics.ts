import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Latency buckets of HTTP requests and jobs, in seconds: from a /health probe to a large queued image. */
const SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

/**
 * The Prometheus metrics of one API node (prom-client), in a registry of its own so that several servers in one
 * process do not share counters. Names and labels are listed in the server's README (operator section).
 */
export class ServerMetrics {
  readonly registry = new Registry();
  readonly requests: Counter<'route' | 'method' | 'status'>;
  readonly requestSeconds: Histogram<'route' | 'method'>;
  readonly credits: Counter<'route'>;
  readonly jobs: Counter<'feature' | 'outcome'>;
  readonly jobSeconds: Histogram<'feature'>;
  readonly jobWaitSeconds: Histogram<'feature'>;
  readonly jobRetries: Counter<'feature'>;
  readonly jobStalls: Counter;
  readonly queueJobs: Gauge<'state'>;

  constructor(options: { defaultMetrics?: boolean } = {}) {
    const registers = [this.registry];
    this.requests = new Counter({ name: 'content_analysis_http_requests_total', help: 'HTTP requests answered, by route, method and status', labelNames: ['route', 'method', 'status'], registers });
    this.requestSeconds = new Histogram({ name: 'content_analysis_http_request_duration_seconds', help: 'Time from a request\'s arrival to the end of its answer', labelNames: ['route', 'method'], buckets: SECONDS_BUCKETS, registers });
    this.credits = new Counter({ name: 'content_analysis_credits_charged_total', help: 'Credits charged for delivered answers, by route', labelNames: ['route'], registers });
    this.jobs = new Counter({ name: 'content_analysis_jobs_total', help: 'Queued analyses this node waited for, by feature and outcome (completed, errored, refused, timeout, failed)', labelNames: ['feature', 'outcome'], registers });
    this.jobSeconds = new Histogram({ name: 'content_analysis_job_duration_seconds', help: 'Run time of a queued analysis on its worker', labelNames: ['feature'], buckets: SECONDS_BUCKETS, registers });
    this.jobWaitSeconds = new Histogram({ name: 'content_analysis_job_latency_seconds', help: 'Time from queueing a job to its result on this node (waiting, retries and run)', labelNames: ['feature'], buckets: SECONDS_BUCKETS, registers });
    this.jobRetries = new Counter({ name: 'content_analysis_job_retries_total', help: 'Jobs that finished on a later attempt (their first worker died or stalled)', labelNames: ['feature'], registers });
    this.jobStalls = new Counter({ name: 'content_analysis_job_stalls_total', help: 'Jobs found stalled (their worker stopped renewing the lock) and put back in the queue', registers });
    this.queueJobs = new Gauge({ name: 'content_analysis_queue_jobs', help: 'Jobs in the analysis queue, by state (read from Redis at each scrape)', labelNames: ['state'], registers });
    if (options.defaultMetrics !== false) collectDefaultMetrics({ register: this.registry, prefix: 'content_analysis_' });
  }

  readonly #collectors: Array<() => Promise<void>> = [];

  /** Runs `collect` before each scrape (reading the queue's counts from Redis, say); a failing one is skipped. */
  addCollector(collect: () => Promise<void>): void {
    this.#collectors.push(collect);
  }

  /** The exposition text, once every collector has set the gauges it reads. */
  async text(): Promise<string> {
    await Promise.all(this.#collectors.map((collect) => collect().catch(() => undefined)));
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
