// Reasons carried in ?notice=<reasonKey> after a redirect, and what the page says.
const NOTICES: Record<string, string> = {
	complete_previous_in_module: 'That entry is locked. Finish the earlier entries of its module first; here is the next one to do.',
	complete_previous_in_course: 'This course is taken in order. Finish the earlier entries first; here is the next one to do.',
	enroll_first: 'Enroll in this course to open its entries.',
	enrolled: 'You are enrolled. Welcome to the course!',
	already_enrolled: 'You are already enrolled in this course.',
	course_completed: 'You have completed every entry of this course. Well done!',
}

export function noticeText(key: string) {
	return NOTICES[key] ?? null
}
