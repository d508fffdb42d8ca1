import { listResource } from './lists';

export interface Contact {
  id: number;
  name: string;
  email: string;
  subject: string;
  message: string;
  createdAt: string;
}

export const contacts = listResource<Contact>('contacts', 'Failed to fetch contacts');
