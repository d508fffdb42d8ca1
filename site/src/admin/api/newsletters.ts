import { listResource } from './lists';

export interface NewsletterSignup {
  id: number;
  email: string;
  phone: string | null;
  zipCode: string;
  createdAt: string;
  updatedAt: string;
}

export const newsletters = listResource<NewsletterSignup>('newsletters', 'Failed to fetch newsletters');
