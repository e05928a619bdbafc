import { redirect } from 'react-router'

// https://w3c.github.io/webappsec-change-password-url/
export const loader = () => redirect('/learn/forgot')
