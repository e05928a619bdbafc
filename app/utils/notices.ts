import type { I18n } from '#app/i18n/index.ts'

type NoticeKey = keyof I18n['m']['common']['notices']

/** What the page says for a reason carried in ?notice=<reasonKey> after a redirect; null for an unknown reason. */
export function noticeText(t: I18n, key: string) {
	return Object.hasOwn(t.m.common.notices, key) ? t.m.common.notices[key as NoticeKey] : null
}
