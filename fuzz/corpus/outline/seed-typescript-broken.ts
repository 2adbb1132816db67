export interface Job {
  id: string;
  attempts: number;
}

export function schedule(job: Job, delayMs: number): void {
  setTimeout(() => run(job, delayMs);
}

export class Queue {
  private jobs: Job[] = [];
  push(job: Job): void {
    this.jobs.push(job);
  }
}

export const MAX_ATTEMPTS = 5;
