export const PORT = Number(process.env.E2E_PORT ?? 3210)

/** An absolute URL on one of the test hosts. */
export const at = (host: string, path = '/') => `http://${host}:${PORT}${path}`
