import * as z from 'zod';
import { defineFeature, SNAKE_CASE_CREDITS } from '../src/index.js';
import type { Feature } from '../src/index.js';

export interface Probe {
  events: string[];
}

/**
 * A feature for tests: costs `cost` credits, records when it plans and analyses, and fails its analysis when
 * the request says so. It is a real feature in every other respect (validated request, result schema).
 */
export function probeFeature(probe: Probe, options: { id?: string; cost?: number; errorStyle?: 'v2' | 'advanced'; fetch?: boolean } = {}): Feature<any, any> {
  const id = options.id ?? 'probe';
  return defineFeature({
    id,
    title: 'Probe',
    description: 'A test feature.',
    routes: [`/v2/${id}`],
    errorStyle: options.errorStyle ?? 'v2',
    request: z.object({ fail: z.boolean().default(false), url: z.string().optional() }),
    result: z.object({ status: z.number(), echo: z.string(), credits_used: z.number(), credits_remaining: z.number() }),
    credits: SNAKE_CASE_CREDITS,
    statusField: true,
    async plan(request: { fail: boolean; url?: string }, context) {
      probe.events.push('plan');
      let echo = 'ok';
      if (options.fetch && request.url) {
        const fetched = await context.fetchRemote(request.url, { accept: ['text/plain'] });
        echo = fetched.bytes.toString('utf8');
      }
      return {
        cost: options.cost ?? 10,
        analyse: async () => {
          probe.events.push('analyse');
          if (request.fail) throw new Error('analysis exploded');
          return { echo };
        },
      };
    },
  });
}
