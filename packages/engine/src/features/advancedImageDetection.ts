import { CREDIT_COSTS } from '@content-analysis/credits';
import type { ReportFigures } from '@content-analysis/forensics';
import { analyzeImageAuthenticity } from '../advanced/analyzeImageAuthenticity.js';
import type { AuthenticityReport } from '../advanced/analyzeImageAuthenticity.js';
import { advancedReportFigures, advancedReportHtml, hasReportFigures } from '../advanced/advancedReport.js';
import { ADVANCED_CREDITS, defineFeature } from '../feature.js';
import { runnerImageClassifier } from '../image/defaultImageClassifier.js';
import { checkPublicUrl } from '../remote.js';
import { advancedImageDetectionRequest } from '../schemas/requests.js';
import type { AdvancedImageDetectionRequest } from '../schemas/requests.js';
import { advancedImageDetectionResult } from '../schemas/results.js';

/** Formats the advanced endpoint reads. */
const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;

export const advancedImageDetectionFeature = defineFeature<AdvancedImageDetectionRequest, AuthenticityReport & { report_figures?: ReportFigures }>({
  id: 'advanced-image-detection',
  title: 'Advanced AI Image Detection',
  description:
    'Forensic analysis of a public image URL: the AI-image classifier, metadata and content credentials, error ' +
    'level analysis, noise residuals, demosaicing traces and edge anomalies, each reported with its measured ' +
    'numbers, and a label, confidence and authenticity from a documented rule. 500 credits, charged after a ' +
    'successful analysis.',
  routes: ['/v2/advanced-image-detection'],
  errorStyle: 'advanced',
  request: advancedImageDetectionRequest,
  result: advancedImageDetectionResult,
  credits: ADVANCED_CREDITS,
  statusField: true,
  async plan(request, context) {
    // The spec's URL rules are checked before the balance, so a bad URL is never an "Insufficient credits".
    checkPublicUrl(request.image_url);
    return {
      cost: CREDIT_COSTS.advancedImageDetection,
      analyse: async () => {
        const image = await context.fetchRemote(request.image_url, { accept: IMAGE_TYPES, maxBytes: 25 * 1024 * 1024 });
        const services = context.services();
        const pool = services.forensicsPool;
        const analysis = await analyzeImageAuthenticity(image.bytes, { classifier: runnerImageClassifier(services.imageClassifier(), context.analysis, context.signal), ...(pool ? { pool } : {}) });
        try {
          if (request.report !== 'html') return analysis.report;
          // The figures travel with the result (from a queue worker too); the page is written when the answer is sent,
          // with the credit fields.
          return { ...analysis.report, report_figures: await advancedReportFigures(image.bytes, analysis) };
        } finally {
          // The report (numbers) and its figures (encoded images) hold no map, and the fusion has ended: the pool may
          // reuse the kernels' map memory for the next images (issue 35: a fresh 48 MB map costs its page faults).
          pool?.releaseResults(analysis.kernels);
        }
      },
    };
  },
  htmlAnswer: (result) => (hasReportFigures(result) ? advancedReportHtml(result, result.report_figures) : undefined),
});
