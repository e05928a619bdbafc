import { type RouteConfig, index, route } from '@react-router/dev/routes'

// The whole URL map. One module per URL: pages export a default component,
// resource routes (APIs, webhooks, files) only a loader or action.
export default [
	index('routes/home.tsx'),
	route('learn', 'routes/learn.tsx'),

	route('api/health', 'routes/api.health.ts'),
] satisfies RouteConfig
