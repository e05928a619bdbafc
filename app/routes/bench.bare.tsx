import { getRequestContext } from '#app/context.ts'
import type { Route } from './+types/bench.bare.ts'
import { notFound } from '#app/platform/errors.ts'

const MAX_BYTES = 512 * 1024

/**
 * The benchmark suite's baseline page (bench/run.ts, scenario 2): HTML of a
 * requested size (`?bytes=`) with no data access of its own, so a signed-in
 * page can be compared with a route that does nothing but render. The root
 * middleware and loader still run, as for every page. Answers 404 unless the
 * process runs with BENCH_ROUTES=true.
 */
export function loader({ request, context }: Route.LoaderArgs) {
	if (getRequestContext(context).env.BENCH_ROUTES !== 'true') throw notFound()
	const bytes = Math.min(
		MAX_BYTES,
		Math.max(0, Math.floor(Number(new URL(request.url).searchParams.get('bytes')) || 0)),
	)
	return { padding: 'x'.repeat(bytes) }
}

export const meta: Route.MetaFunction = () => [{ title: 'Benchmark baseline' }]

export default function BenchBare({ loaderData }: Route.ComponentProps) {
	return (
		<section>
			<h1>Benchmark baseline</h1>
			<p>{loaderData.padding}</p>
		</section>
	)
}
