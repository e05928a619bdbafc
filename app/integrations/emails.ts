// The integrations room's mail, in every supported locale (issue 50: each room's mail copy beside it).
// `{site}` and `{url}` are filled in when composing (app/platform/emails.server.ts).
// tests/integration/emails.test.ts checks, through app/emails.ts, that every locale has every key
// and that no locale is a copy of English.
import type { EmailCopies } from '#app/i18n/emails.ts'

export type IntegrationEmailKind =
	// An outgoing webhook endpoint failed for too long and was disabled (decision 0072), to each tenant admin.
	'webhook_disabled'

export const INTEGRATION_EMAILS: EmailCopies<IntegrationEmailKind> = {
	en: {
		webhook_disabled: {
			subject: 'A webhook endpoint was disabled',
			body: 'Deliveries to the webhook endpoint {url} of {site} have failed for days, so it was disabled. Fix the receiver, then enable the endpoint again; events are not sent to it meanwhile.',
			action: 'Open the webhook settings',
			footer: 'You receive this email because you administer {site}.',
		},
	},
	es: {
		webhook_disabled: {
			subject: 'Se ha desactivado un endpoint de webhook',
			body: 'Las entregas al endpoint de webhook {url} de {site} han fallado durante días, así que se ha desactivado. Corrija el receptor y vuelva a activar el endpoint; mientras tanto no se le envían eventos.',
			action: 'Abrir la configuración de webhooks',
			footer: 'Recibe este correo porque administra {site}.',
		},
	},
	fr: {
		webhook_disabled: {
			subject: 'Un point de terminaison webhook a été désactivé',
			body: 'Les envois vers le point de terminaison webhook {url} de {site} échouent depuis plusieurs jours : il a été désactivé. Corrigez le récepteur, puis réactivez-le ; aucun événement ne lui est envoyé entre-temps.',
			action: 'Ouvrir les réglages des webhooks',
			footer: 'Vous recevez ce courriel parce que vous administrez {site}.',
		},
	},
	de: {
		webhook_disabled: {
			subject: 'Ein Webhook-Endpunkt wurde deaktiviert',
			body: 'Zustellungen an den Webhook-Endpunkt {url} von {site} schlagen seit Tagen fehl, daher wurde er deaktiviert. Beheben Sie den Empfänger und aktivieren Sie den Endpunkt wieder; bis dahin werden ihm keine Ereignisse gesendet.',
			action: 'Webhook-Einstellungen öffnen',
			footer: 'Sie erhalten diese E-Mail, weil Sie {site} verwalten.',
		},
	},
	pt: {
		webhook_disabled: {
			subject: 'Um endpoint de webhook foi desativado',
			body: 'As entregas ao endpoint de webhook {url} de {site} falharam durante dias, por isso foi desativado. Corrija o recetor e volte a ativar o endpoint; entretanto não lhe são enviados eventos.',
			action: 'Abrir as definições de webhooks',
			footer: 'Recebe este email porque administra {site}.',
		},
	},
	zh: {
		webhook_disabled: {
			subject: '一个 Webhook 端点已被停用',
			body: '{site} 的 Webhook 端点 {url} 已连续多日投递失败，因此已被停用。请修复接收端后重新启用该端点；在此期间不会向其发送事件。',
			action: '打开 Webhook 设置',
			footer: '您收到此邮件是因为您是 {site} 的管理员。',
		},
	},
}
