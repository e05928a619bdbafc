import { redirect } from 'react-router'

// The authentication transport's sign-out resolves to the branded sign-out page.
export const loader = () => redirect('/learn/sign-out')
export const action = loader
