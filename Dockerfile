FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 DJANGO_ENV=production
WORKDIR /app
COPY pyproject.toml README.md ./
COPY . .
RUN pip install --no-cache-dir .
EXPOSE 8000
CMD ["gunicorn", "celticsite.wsgi", "--bind", "0.0.0.0:8000"]
