import type { Routes } from '../access.js';
import type { ServiceApi } from '../api.js';

/** GET /metrics: Prometheus text format; prom-client is imported on the first scrape only. */
export function metricsRoutes(routes: Routes, api: ServiceApi): void {
  routes.get('/metrics', 'api', async (ctx) => {
    const { renderMetrics } = await import('../../monitor/metrics.js');
    const { contentType, body } = await renderMetrics(api.status());
    ctx.type = contentType;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  });
}
